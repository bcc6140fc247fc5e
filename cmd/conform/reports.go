package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/threespec/conformance/harness"
)

// reports are where conform run writes its reports: the human one to
// standard output (to standard error when a machine report takes standard
// output), the JSON and JUnit ones to standard output ("-") or to files.
//
// A report file is never written in place (issue 30): each is written
// whole to a new file in its directory and renamed over the old one only
// when every machine report was written, so that a run that is killed, or
// fails to write a report, leaves the previous reports as they were, and
// two runs writing the same file leave one whole report. A name that is
// not a regular file (a device such as /dev/stdout, a FIFO, a process
// substitution) is opened at the start and written in place. Two report
// flags may not name the same file. A report that cannot be written is
// conform's error (exit status 2), which the human report, written last,
// states instead of the verdict.
type reports struct {
	text io.Writer
	outs []*reportOut // in order: --json, --junit
}

// reportOut is one machine report's destination.
type reportOut struct {
	flag  string // "--json", "--junit"
	what  string // "JSON", "JUnit"
	name  string // as given
	write func(io.Writer, *harness.Report) error
	// Exactly one of w (standard output, or a file that is not a regular
	// file, opened at the start) and target (a regular file's path, links
	// resolved, written by rename) is set.
	w      io.Writer
	file   *os.File // w, when conform opened it
	target string
	perm   fs.FileMode // target's permissions, when it exists
	tmp    string      // the new file being written, until it is renamed
}

// openReports checks the report flags and opens what must be opened
// before the run. Its errors are usage errors. claimOut (conform run
// --claim) is a machine report too: the run's conformance claim.
func openReports(stdout, stderr io.Writer, jsonOut, junitOut string, claimOut ...string) (*reports, error) {
	r := &reports{text: stdout}
	all := []*reportOut{
		{flag: "--json", what: "JSON", name: jsonOut, write: harness.WriteJSON},
		{flag: "--junit", what: "JUnit", name: junitOut, write: harness.WriteJUnit},
	}
	for _, c := range claimOut {
		all = append(all, &reportOut{flag: "--claim", what: "claim", name: c, write: harness.ClaimWriter(specs)})
	}
	for i, a := range all {
		for _, b := range all[i+1:] {
			switch {
			case a.name == "" || b.name == "":
			case a.name == "-" && b.name == "-":
				return nil, fmt.Errorf("%s and %s cannot both write to standard output", a.flag, b.flag)
			case sameFile(stdout, a.name, b.name):
				return nil, fmt.Errorf("%s %s and %s %s name the same file: each report needs a file of its own", a.flag, a.name, b.flag, b.name)
			}
		}
	}
	for _, o := range all {
		if o.name == "" {
			continue
		}
		if err := o.open(r, stdout, stderr); err != nil {
			r.close()
			return nil, err
		}
		r.outs = append(r.outs, o)
	}
	return r, nil
}

// open prepares one destination: standard output, a file that is not a
// regular file (opened now), or a regular file to be replaced, whose
// directory must take a new file (tried now, and removed).
func (o *reportOut) open(r *reports, stdout, stderr io.Writer) error {
	if o.name == "-" {
		r.text = stderr
		o.w = stdout
		return nil
	}
	fi, err := os.Stat(o.name)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s %s: a directory", o.flag, o.name)
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(o.name, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", o.flag, err)
		}
		o.w, o.file = f, f
		return nil
	case err == nil:
		if o.target, err = filepath.EvalSymlinks(o.name); err != nil {
			return fmt.Errorf("%s: %w", o.flag, err)
		}
		o.perm = fi.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		o.target = o.name
	default:
		return fmt.Errorf("%s: %w", o.flag, err)
	}
	f, tmp, err := createNew(o.target)
	if err != nil {
		return fmt.Errorf("%s %s: %w", o.flag, o.name, err)
	}
	f.Close()
	os.Remove(tmp)
	return nil
}

// sameFile reports whether two report flags' values name one file: the
// same path once made absolute and its links resolved, or the same file
// (a hard link, standard output as "-" and as /dev/stdout).
func sameFile(stdout io.Writer, a, b string) bool {
	stat := func(name string) (fs.FileInfo, error) {
		if name == "-" {
			if f, ok := stdout.(*os.File); ok {
				return f.Stat()
			}
			return nil, errors.New("not a file")
		}
		return os.Stat(name)
	}
	if a != "-" && b != "-" && canonical(a) == canonical(b) {
		return true
	}
	fa, errA := stat(a)
	fb, errB := stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// canonical is name made absolute, with the links of its directory (and
// of itself, when it exists) resolved.
func canonical(name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		return name
	}
	if p, err := filepath.EvalSymlinks(abs); err == nil {
		return p
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

var tmpSeq atomic.Int64

// createNew creates a new file beside target, for its next contents, with
// the permissions os.Create gives (0666 less the umask).
func createNew(target string) (*os.File, string, error) {
	dir, base := filepath.Split(target)
	for {
		name := filepath.Join(dir, "."+base+".conform-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatInt(time.Now().UnixNano()+tmpSeq.Add(1), 36)+".tmp")
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			err = fmt.Errorf("cannot create a file in %s: %w", filepath.Clean(dir), pe.Err)
		}
		return f, name, err
	}
}

// write writes the machine reports, then the human one. A machine report
// that cannot be written leaves every report file as it was, and becomes
// the report's conform error (exit status 2), which the human report then
// states; write returns only the human report's own error.
//
// The runner's peak RSS is noted before the machine reports (what they
// state) and again before the human one, so that it covers the machine
// reports' own memory too (harness.NotePeakRSS).
func (r *reports) write(rep *harness.Report, opt harness.TextOptions) error {
	harness.NotePeakRSS(rep)
	if err := r.writeMachine(rep); err != nil {
		rep.SetConformError(err.Error())
	}
	harness.NotePeakRSS(rep)
	return harness.WriteText(r.text, rep, opt)
}

// writeMachine writes every report file to its new file, then standard
// output and the files written in place, then renames the new files over
// the old ones; on any error it removes the new files.
func (r *reports) writeMachine(rep *harness.Report) error {
	defer r.close()
	var errs []error
	for _, o := range r.outs {
		if o.target != "" {
			errs = append(errs, o.writeNew(rep))
		}
	}
	if err := errors.Join(errs...); err == nil {
		for _, o := range r.outs {
			if o.w != nil {
				if err := o.write(o.w, rep); err != nil {
					errs = append(errs, fmt.Errorf("writing the %s report to %s: %w", o.what, o.name, err))
				}
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, o := range r.outs {
		if o.tmp != "" {
			if err := os.Rename(o.tmp, o.target); err != nil {
				errs = append(errs, fmt.Errorf("writing the %s report to %s: %w", o.what, o.name, err))
			}
			o.tmp = ""
		}
	}
	return errors.Join(errs...)
}

// writeNew writes the report whole to a new file beside the target.
func (o *reportOut) writeNew(rep *harness.Report) error {
	f, tmp, err := createNew(o.target)
	if err != nil {
		return fmt.Errorf("writing the %s report to %s: %w", o.what, o.name, err)
	}
	o.tmp = tmp
	bw := bufio.NewWriterSize(f, 64<<10)
	err = o.write(bw, rep)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && o.perm != 0 {
		err = f.Chmod(o.perm) // the permissions of the file it replaces
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the %s report to %s: %w", o.what, o.name, err)
	}
	return nil
}

// close closes what open opened and removes new files not renamed.
func (r *reports) close() {
	for _, o := range r.outs {
		if o.file != nil {
			o.file.Close()
			o.file = nil
		}
		if o.tmp != "" {
			os.Remove(o.tmp)
			o.tmp = ""
		}
	}
}
