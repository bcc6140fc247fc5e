package main

import (
	"errors"
	"io"
	"os"

	"github.com/threespec/conformance/harness"
)

// reports are where conform run writes its reports: the human one to
// standard output (to standard error when a machine report takes standard
// output), the JSON and JUnit ones to files opened before the run.
type reports struct {
	text, json, junit io.Writer
	files             []*os.File
}

func openReports(stdout, stderr io.Writer, jsonOut, junitOut string) (*reports, error) {
	r := &reports{text: stdout}
	if jsonOut == "-" && junitOut == "-" {
		return nil, errors.New("--json and --junit cannot both write to standard output")
	}
	open := func(name string) (io.Writer, error) {
		switch name {
		case "":
			return nil, nil
		case "-":
			r.text = stderr
			return stdout, nil
		}
		f, err := os.Create(name)
		if err != nil {
			return nil, err
		}
		r.files = append(r.files, f)
		return f, nil
	}
	var err error
	if r.json, err = open(jsonOut); err != nil {
		r.close()
		return nil, err
	}
	if r.junit, err = open(junitOut); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// write writes the reports: JUnit first (it holds a copy of the report's
// texts while it is written), then the JSON and human reports, which are
// streamed and print the runner's peak RSS as it stands after JUnit
// (harness.NotePeakRSS).
func (r *reports) write(rep *harness.Report, opt harness.TextOptions) error {
	var errs []error
	if r.junit != nil {
		errs = append(errs, harness.WriteJUnit(r.junit, rep))
	}
	harness.NotePeakRSS(rep)
	if r.json != nil {
		errs = append(errs, harness.WriteJSON(r.json, rep))
	}
	errs = append(errs, harness.WriteText(r.text, rep, opt))
	for _, f := range r.files {
		errs = append(errs, f.Close())
	}
	r.files = nil
	return errors.Join(errs...)
}

func (r *reports) close() {
	for _, f := range r.files {
		f.Close()
	}
}
