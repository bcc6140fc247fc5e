module github.com/threespec/conformance/examples/lace-go

go 1.27

toolchain go1.27.3

require (
	github.com/btcsuite/btcd/btcec/v2 v2.5.1
	github.com/zeebo/blake3 v0.2.4
	golang.org/x/text v0.44.0
)

require (
	github.com/btcsuite/btcd/chainhash/v2 v2.0.0 // indirect
	github.com/decred/dcrd/crypto/blake256 v1.1.0 // indirect
	github.com/decred/dcrd/dcrec/secp256k1/v4 v4.4.1 // indirect
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
)
