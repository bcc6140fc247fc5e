package treecheck

import (
	"encoding/binary"
	"os"
	"testing"
)

func pe(lfanew uint32, sig string) []byte {
	b := make([]byte, 0x80)
	copy(b, "MZ")
	binary.LittleEndian.PutUint32(b[0x3c:], lfanew)
	copy(b[lfanew:], sig)
	return b
}

func TestExecutable(t *testing.T) {
	for _, c := range []struct {
		name string
		head []byte
		want string
	}{
		{"ELF", []byte("\x7fELF\x02\x01\x01\x00"), "ELF"},
		{"Mach-O 64 LE", []byte{0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1}, "Mach-O"},
		{"Mach-O 32 BE", []byte{0xfe, 0xed, 0xfa, 0xce}, "Mach-O"},
		{"Mach-O fat", []byte{0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2}, "Mach-O"},
		{"PE", pe(0x40, "PE\x00\x00"), "PE"},
		{"MZ without PE signature", pe(0x40, "NE\x00\x00"), ""},
		{"MZ pointing past the head", pe(0x40, "")[:0x40], ""},
		{"MZ text", []byte("MZ is a file that starts with two letters"), ""},
		{"Go source", []byte("package treecheck\n"), ""},
		{"empty", nil, ""},
		{"ELF cut short", []byte("\x7fEL"), ""},
	} {
		got, ok := Executable(c.head)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: Executable = %q, %v; want %q", c.name, got, ok, c.want)
		}
	}
}

// The test binary running this test is an executable of this platform's
// format (ELF on Linux, Mach-O on macOS, PE on Windows).
func TestOwnBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 4096)
	n, _ := f.Read(head)
	if format, ok := Executable(head[:n]); !ok {
		t.Fatalf("%s is not recognised as an executable", exe)
	} else {
		t.Logf("%s: %s", exe, format)
	}
}
