/** Account history: the address index written with every block and the queries over it. */
export {
  addressIndexWrites,
  addressIndexEntries,
  decodeAddressIndexKey,
  AddressIndex,
  ADDRESS_INDEX_TAG,
  type AddressIndexEntry,
  type AddressIndexReader,
} from './address-index.js';
export {
  AccountHistory,
  AccountRangeTooWideError,
  DEFAULT_ACCOUNT_HISTORY_MAX_BLOCKS,
  type AccountHistoryPage,
  type AccountTransaction,
} from './account-history.js';
