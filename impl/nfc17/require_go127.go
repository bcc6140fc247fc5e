//go:build !go1.27

package nfc17

// golang.org/x/text compiles its Unicode 17.0.0 normalization tables only
// with Go 1.27 or newer; with an older Go it silently judges NFC under
// Unicode 15.0.0 and gets 70 lines of NormalizationTest 17.0.0 wrong.
// Build with: export GOTOOLCHAIN=go1.27.3
var _ = this_package_requires_go1_27_for_unicode_17_nfc_export_GOTOOLCHAIN_go1_27_3
