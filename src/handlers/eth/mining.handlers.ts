/** The mining group of eth_* handlers (one file per method beside this one). */
export const ethMiningHandlers = {};
