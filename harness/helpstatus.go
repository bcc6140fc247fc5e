package harness

import (
	"errors"
	"flag"
)

// HelpStatus is a command's exit status after a flag parsing error: 0 for
// -help, 2 for a usage error (the flag package has printed it).
func HelpStatus(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return ExitSetup
}
