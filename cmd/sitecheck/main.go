// Command sitecheck checks a site `conform site` built in a real browser
// (issue 32): it opens the site from file:// in headless Chromium, and
// fails unless every page loads with no console error, no uncaught
// exception and no resource that fails to load; every matrix has a row
// for every rule of its spec's claims; every failing cell links to a
// section of the site that lists its vectors; the "fails only in"
// filter shows exactly the rows that fail in that implementation alone.
// It saves a screenshot of the matrix with the most failing cells,
// showing the rows that fail somewhere. It is not part of `go test ./...`:
// Chromium is not on every machine that runs the tests (Debian:
// apt-get install chromium).
//
//	go run ./cmd/conform site A.claim.json B.claim.json -o site
//	go run ./cmd/sitecheck -site site -screenshot site-matrix.png
//
// Exit status 0 when every check passed, 1 when one failed, 2 on an error
// (no Chromium, no site).
//
// chromedp drives Chromium over the DevTools protocol: it is the one Go
// module that reads console messages, exceptions and failed loads as
// they happen and evaluates script in the page; Chromium's command line
// alone (--dump-dom, --screenshot) gives neither the console nor a filter
// to change.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/threespec/conformance/harness"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// cell is a matrix cell as the page gives it.
type cell struct {
	Row, Impl, Class, Href string
}

// matrix is what a matrix page gives of itself.
type matrix struct {
	Rows  []string          `json:"rows"`
	Cells []cell            `json:"cells"`
	Fail  map[string]string `json:"fail"` // row ID -> data-fail
	Impls []string          `json:"impls"`
}

const readMatrix = `(() => {
  const rows = [...document.querySelectorAll("#matrix tr.rule")];
  const cells = [];
  const fail = {};
  for (const tr of rows) {
    fail[tr.id] = tr.dataset.fail;
    for (const td of tr.querySelectorAll("td.cell")) {
      const a = td.querySelectorAll("a");
      cells.push({Row: tr.id, Impl: td.dataset.impl, Class: td.className, Href: a.length === 1 ? a[0].getAttribute("href") : ""});
    }
  }
  const impls = [...document.querySelectorAll("#f-only option")].map(o => o.value).filter(v => v);
  return {rows: rows.map(tr => tr.id), cells, fail, impls};
})()`

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sitecheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("site", "site", "the site's `directory` (conform site -o)")
	shot := fs.String("screenshot", "site-matrix.png", "where to save a screenshot of the matrix with the most failing cells (`file`, PNG)")
	chrome := fs.String("chromium", "", "the Chromium executable (default: chromium, chromium-browser or google-chrome on PATH)")
	timeout := fs.Duration("timeout", 5*time.Minute, "how long the whole check may take")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(stderr, "sitecheck:", err); return 2 }
	root, err := filepath.Abs(*dir)
	if err != nil {
		return fail(err)
	}
	want, err := rulesOfClaims(filepath.Join(root, "claims"))
	if err != nil {
		return fail(err)
	}
	exe := *chrome
	if exe == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				exe = p
				break
			}
		}
	}
	if exe == "" {
		return fail(fmt.Errorf("no Chromium on PATH (Debian: apt-get install chromium; or --chromium PATH)"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.WindowSize(1400, 900),
		chromedp.Flag("allow-file-access-from-files", false))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	var mu sync.Mutex
	var problems []string
	page := ""
	note := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		problems = append(problems, fmt.Sprintf(format, a...))
	}
	chromedp.ListenTarget(bctx, func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.APITypeError || e.Type == runtime.APITypeAssert {
				var parts []string
				for _, a := range e.Args {
					parts = append(parts, string(a.Value))
				}
				note("%s: console %s: %s", page, e.Type, strings.Join(parts, " "))
			}
		case *runtime.EventExceptionThrown:
			note("%s: uncaught exception: %s", page, e.ExceptionDetails.Error())
		case *log.EventEntryAdded:
			if e.Entry.Level == log.LevelError {
				note("%s: %s error: %s %s", page, e.Entry.Source, e.Entry.Text, e.Entry.URL)
			}
		}
	})
	if err := chromedp.Run(bctx, runtime.Enable(), log.Enable()); err != nil {
		return fail(fmt.Errorf("starting %s: %v", exe, err))
	}
	open := func(name string) error {
		page = name
		u := (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root, name))}).String()
		return chromedp.Run(bctx, chromedp.Navigate(u), chromedp.WaitReady("body"))
	}
	// ids returns the ids of the open page that have vectors under them.
	ids := func() (map[string]int, error) {
		var m map[string]int
		err := chromedp.Run(bctx, chromedp.Evaluate(`Object.fromEntries([...document.querySelectorAll("[id]")].map(e => [e.id, e.querySelectorAll("li.vector").length]))`, &m))
		return m, err
	}

	pages, _ := filepath.Glob(filepath.Join(root, "*.html"))
	var specPages []string
	for _, p := range pages {
		if b := filepath.Base(p); strings.HasPrefix(b, "spec-") {
			specPages = append(specPages, b)
		}
	}
	sort.Strings(specPages)
	if len(specPages) == 0 {
		return fail(fmt.Errorf("%s has no matrix page (spec-*.html): not a site of conform site", root))
	}
	checkedLinks, failingCells := 0, 0
	targets := map[string][]string{} // page -> anchors failing cells link to
	shotPage, bestFailing := "", 0   // the matrix with the most failing cells, for the screenshot
	for _, sp := range specPages {
		if err := open(sp); err != nil {
			return fail(err)
		}
		var m matrix
		if err := chromedp.Run(bctx, chromedp.Evaluate(readMatrix, &m)); err != nil {
			return fail(fmt.Errorf("%s: %v", sp, err))
		}
		suite := strings.TrimSuffix(strings.TrimPrefix(sp, "spec-"), ".html")
		for _, r := range want[suite] {
			if !slices.Contains(m.Rows, "r-"+r) {
				note("%s: no row for rule %s of the claims", sp, r)
			}
		}
		if len(m.Rows) != len(want[suite]) {
			note("%s: %d rule rows, the claims have %d rules", sp, len(m.Rows), len(want[suite]))
		}
		for _, c := range m.Cells {
			if !failingClass(c.Class) {
				continue
			}
			failingCells++
			file, anchor, _ := strings.Cut(c.Href, "#")
			if file == "" || anchor == "" || !strings.HasPrefix(file, "impl-") {
				note("%s: the failing cell %s / %s links %q, not to the implementation's vectors", sp, c.Row, c.Impl, c.Href)
				continue
			}
			targets[file] = append(targets[file], anchor)
		}
		// The filter "fails only in": for each implementation, the rows
		// shown are exactly those failing there alone.
		for _, im := range m.Impls {
			var shown []string
			err := chromedp.Run(bctx,
				chromedp.SetValue("#f-only", im, chromedp.ByID),
				chromedp.Evaluate(`document.getElementById("f-only").dispatchEvent(new Event("change")); [...document.querySelectorAll("#matrix tr.rule:not(.hidden)")].map(tr => tr.id)`, &shown))
			if err != nil {
				return fail(fmt.Errorf("%s: the filter: %v", sp, err))
			}
			var only []string
			for _, r := range m.Rows {
				if m.Fail[r] == im {
					only = append(only, r)
				}
			}
			if !slices.Equal(shown, only) {
				note("%s: fails only in %s shows %d rows, %d fail there alone", sp, im, len(shown), len(only))
			}
		}
		if n := countFailing(m.Cells); n > bestFailing || shotPage == "" {
			bestFailing, shotPage = n, sp
		}
		fmt.Fprintf(stdout, "sitecheck: %s: %d rule rows, %d cells, %d implementations\n", sp, len(m.Rows), len(m.Cells), len(m.Impls))
	}
	// The screenshot: that matrix with the rows failing somewhere.
	if err := open(shotPage); err != nil {
		return fail(err)
	}
	var png []byte
	if err := chromedp.Run(bctx, chromedp.Click("#f-failing", chromedp.ByID), chromedp.FullScreenshot(&png, 100)); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(*shot, png, 0o644); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "sitecheck: screenshot of %s, rows failing somewhere, in %s (%d bytes)\n", shotPage, *shot, len(png))
	files := make([]string, 0, len(targets))
	for f := range targets {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if err := open(f); err != nil {
			return fail(err)
		}
		have, err := ids()
		if err != nil {
			return fail(err)
		}
		for _, a := range targets[f] {
			checkedLinks++
			if n, ok := have[a]; !ok || n == 0 {
				note("%s: a failing cell links #%s, which has %d vectors (present: %v)", f, a, n, ok)
			}
		}
	}
	// Every other page loads without an error too.
	for _, p := range pages {
		if b := filepath.Base(p); !slices.Contains(specPages, b) && !slices.Contains(files, b) {
			if err := open(b); err != nil {
				return fail(err)
			}
		}
	}
	chromedp.Run(bctx, chromedp.Sleep(200*time.Millisecond)) // the last page's late events
	fmt.Fprintf(stdout, "sitecheck: %d pages opened from file://, %d failing cells, each linking a section that lists its vectors (%d links followed)\n",
		len(pages), failingCells, checkedLinks)
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(stdout, "FAIL", p)
		}
		fmt.Fprintf(stdout, "sitecheck: %d problems\n", len(problems))
		return 1
	}
	fmt.Fprintln(stdout, "sitecheck: PASS: no console error, no uncaught exception, no failed load")
	return 0
}

func countFailing(cells []cell) int {
	n := 0
	for _, c := range cells {
		if failingClass(c.Class) {
			n++
		}
	}
	return n
}

// failingClass reports whether a cell's classes mark a failing verdict.
func failingClass(class string) bool {
	for _, c := range strings.Fields(class) {
		switch c {
		case "v-fail", "v-warn", "v-xfail", "v-reading", "v-not-judged":
			return true
		}
	}
	return false
}

// rulesOfClaims lists, per suite, the rules of the vectors of the site's
// claims (claims/*.json): the rows each matrix must have.
func rulesOfClaims(dir string) (map[string][]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no claims in %s: not a site of conform site", dir)
	}
	out := map[string][]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		c, err := harness.ReadClaim(strings.NewReader(string(b)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		for _, v := range c.Vectors {
			for _, r := range v.Rules {
				if !slices.Contains(out[v.Suite], r) {
					out[v.Suite] = append(out[v.Suite], r)
				}
			}
		}
	}
	return out, nil
}
