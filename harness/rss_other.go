//go:build !unix

package harness

func maxRSS() int64 { return 0 }
