//go:build !unix

package main

// writePeakRSS writes nothing where getrusage is not to be had: the peak
// RSS tests run on Unix only (peakrss_unix_test.go).
func writePeakRSS(string) {}
