// Package treecheck tells compiled executables apart from the files a source
// tree may hold, so that CI can refuse a commit that carries a build output
// (a test binary, a compiled tool) in place of the sources that make it.
package treecheck

import (
	"bytes"
	"encoding/binary"
)

// Executable reports whether head, the first bytes of a file (at least 64
// where the file has them; 4 KiB is plenty), starts an ELF, Mach-O or PE
// executable or object, and names the format. A PE file is recognised by its
// "MZ" stub and the "PE\0\0" signature the stub's e_lfanew points at, so a
// data file that merely starts with "MZ" is not taken for one.
func Executable(head []byte) (format string, ok bool) {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF", true
	case len(head) >= 4 && machO(binary.BigEndian.Uint32(head)):
		return "Mach-O", true
	case bytes.HasPrefix(head, []byte("MZ")) && len(head) >= 0x40:
		off := int(binary.LittleEndian.Uint32(head[0x3c:]))
		if off+4 <= len(head) && string(head[off:off+4]) == "PE\x00\x00" {
			return "PE", true
		}
	}
	return "", false
}

// machO: the thin 32- and 64-bit magics in either byte order, and the
// universal (fat) header, as <mach-o/loader.h> and <mach-o/fat.h> give them.
func machO(m uint32) bool {
	switch m {
	case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe, 0xcafebabe, 0xbebafeca:
		return true
	}
	return false
}
