module example.com/conformance-go-example

go 1.27

toolchain go1.27.3

require github.com/threespec/conformance v0.0.0

require (
	github.com/btcsuite/btcd/btcec/v2 v2.5.1 // indirect
	github.com/btcsuite/btcd/chainhash/v2 v2.0.0 // indirect
	github.com/decred/dcrd/crypto/blake256 v1.1.0 // indirect
	github.com/decred/dcrd/dcrec/secp256k1/v4 v4.4.1 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/klauspost/cpuid/v2 v2.0.12 // indirect
	github.com/zeebo/blake3 v0.2.4 // indirect
	golang.org/x/crypto v0.59.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)

// This example tests against the clone it sits in; an implementer's own
// module drops the replace and requires a tagged version instead.
replace github.com/threespec/conformance => ../..
