package harness

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
)

// Every report states the time split; each asked vector's parts add up
// to at most its time, the report's parts are the vectors' sums (hello in
// the testee's), and -v or --profile-times lists the slowest vectors.
func TestTimeSplitInReports(t *testing.T) {
	rep := mixedReport(t)
	var transfer, testeeMs, judging float64
	asked := 0
	for _, v := range rep.Vectors {
		if v.Times == nil {
			if v.Status != NotApplicable {
				t.Errorf("%s (%s): no time split", v.ID, v.Status)
			}
			continue
		}
		asked++
		vt := v.Times
		if vt.Transfer < 0 || vt.Testee <= 0 || vt.Judging < 0 || vt.Transfer+vt.Testee+vt.Judging > v.Millis+0.01 {
			t.Errorf("%s: split %+v of %.3f ms", v.ID, *vt, v.Millis)
		}
		transfer, testeeMs, judging = transfer+vt.Transfer, testeeMs+vt.Testee, judging+vt.Judging
	}
	tm := rep.Times
	if asked != 5 || tm.Verification <= 0 || tm.Wall <= 0 || tm.RunnerMaxRSS <= 0 ||
		!near(tm.Transfer, transfer/1000) || tm.Testee < testeeMs/1000 || !near(tm.Judging, judging/1000) {
		t.Errorf("%d asked; times %+v; vector sums %.3f %.3f %.3f ms", asked, tm, transfer, testeeMs, judging)
	}

	var plain, verbose bytes.Buffer
	WriteText(&plain, rep, TextOptions{})
	WriteText(&verbose, rep, TextOptions{ProfileTimes: true})
	for _, want := range []string{"time:        verification ", ", transfer ", ", testee ", ", judging ", "runner peak RSS", "inputs by base64"} {
		if !strings.Contains(plain.String(), want) {
			t.Errorf("the human report lacks %q:\n%s", want, plain.String())
		}
	}
	if strings.Contains(plain.String(), "slowest") || !strings.Contains(verbose.String(), "slowest 5 vectors") {
		t.Errorf("the slowest vectors are listed only with --profile-times:\n%s", verbose.String())
	}

	var doc struct {
		Times   map[string]float64 `json:"times"`
		Vectors []struct {
			Times map[string]float64 `json:"times"`
		} `json:"vectors"`
	}
	decodeReport(t, rep, WriteJSON, json.Unmarshal, &doc)
	for _, k := range []string{"verification_s", "transfer_s", "testee_s", "judging_s", "wall_s", "runner_max_rss_bytes"} {
		if _, ok := doc.Times[k]; !ok {
			t.Errorf("the JSON report's times lack %s: %v", k, doc.Times)
		}
	}
	if _, ok := doc.Vectors[0].Times["testee_ms"]; !ok {
		t.Errorf("the JSON report's vectors lack times: %v", doc.Vectors[0].Times)
	}

	var x struct {
		Suites []struct {
			Props []struct {
				Name string `xml:"name,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	decodeReport(t, rep, WriteJUnit, xml.Unmarshal, &x)
	names := map[string]bool{}
	for _, p := range x.Suites[0].Props {
		names[p.Name] = true
	}
	for _, k := range []string{"time.verification", "time.transfer", "time.testee", "time.judging", "time.wall", "inputs"} {
		if !names[k] {
			t.Errorf("the JUnit properties lack %s: %v", k, names)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-3 && b-a < 1e-3 }
