// Minimal Hardhat 2 project for the peer benchmark (bench/compare). Hardhat refuses to run without a config
// file. Same defaults a developer gets (automine, 30M gas limit, the "test … junk" mnemonic), except request
// logging, which is switched off as it is for every other node in the comparison.
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      mining: { auto: true },
      loggingEnabled: false,
      accounts: { mnemonic: 'test test test test test test test test test test test junk', count: 10 },
    },
  },
};
