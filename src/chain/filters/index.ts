/** Polled filters and push subscriptions over head changes and pending transactions. */
export {
  FilterManager,
  type FilterManagerOptions,
  type FilterChanges,
  type FilterKind,
  type HeadBlock,
  type HeadReorg,
  type LogFilterSpec,
  type Subscription,
} from './filter-manager.js';
export { FilterNotFoundError, FilterLimitError, FilterOverflowError } from './errors.js';
export { attachFilters, type ChainFilters, type ChainFilterOptions } from './chain-wiring.js';
