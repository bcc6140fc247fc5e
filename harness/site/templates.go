package site

// The pages. Every page links only files of the site (style.css,
// filter.js, its pages, badges and claims), so that it opens from file://
// with no server and no network.
const templates = `
{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>{{.}}</title>
<link rel="stylesheet" href="style.css"/>
</head>
<body>
{{end}}

{{define "foot"}}<footer><p>Made by <code>conform site</code> from conformance claims (docs/CLAIM.md); each claim can be re-checked with <code>conform verify CLAIM -- TESTEE</code>.</p></footer>
</body>
</html>
{{end}}

{{define "index"}}{{template "head" .Title}}<nav><a href="index.html">{{.Title}}</a></nav>
<h1>{{.Title}}</h1>
<h2>Specifications</h2>
<ul id="specs">
{{range .Specs}}<li><a href="spec-{{.Name}}.html">{{.Name}}</a>: {{len .Rules}} rules, {{len .Impls}} implementations; set hash {{join .SetHashes ", "}} (<a href="vectors-{{.Name}}.html">vectors</a>)</li>
{{end}}</ul>
<h2>Implementations</h2>
<table id="impls">
<thead><tr><th>implementation</th><th>language</th><th>results</th><th>claim</th></tr></thead>
<tbody>
{{range $im := .Impls}}<tr id="i-{{$im.Slug}}"><td><a href="impl-{{$im.Slug}}.html">{{$im.Label}}</a></td><td>{{with $im.In.Claim.Header.Implementation}}{{.Language}}{{end}}</td>
<td>{{range $.Specs}}{{if has . $im}}<a href="spec-{{.Name}}.html"><img src="{{badgeFile $im .}}" alt="{{.Name}} badge"/></a> {{end}}{{end}}</td>
<td><a href="claims/{{$im.Slug}}.json">claim JSON</a></td></tr>
{{end}}</tbody>
</table>
{{template "foot"}}{{end}}

{{define "spec"}}{{template "head" (print .Title ": " .S.Name)}}<nav><a href="index.html">{{.Title}}</a> › {{.S.Name}} (<a href="vectors-{{.S.Name}}.html">vectors</a>)</nav>
<h1>{{.S.Name}}: implementations × rules</h1>
<p>Set hash {{join .S.SetHashes ", "}}. A cell is an implementation's verdict on a rule; it links to the vectors behind it (the implementation's page where a vector did not pass, else the rule's vectors).</p>
<form id="filters">
<label>level <select id="f-level"><option value="">all</option><option value="MUST">MUST</option><option value="SHOULD">SHOULD</option></select></label>
<label>reading <select id="f-reading"><option value="">any</option>{{range .Readings}}<option value="{{.}}">{{.}}</option>{{end}}</select></label>
<label>fails only in <select id="f-only"><option value="">(no filter)</option>{{range .S.Impls}}<option value="{{.Slug}}">{{.Label}}</option>{{end}}</select></label>
<label><input type="checkbox" id="f-failing"/> failing somewhere</label>
<span id="f-shown"></span>
</form>
<table id="matrix" class="matrix">
<thead><tr><th>rule</th><th>level</th><th>section</th>{{range .S.Impls}}<th class="impl"><a href="impl-{{.Slug}}.html" title="{{.Label}}">{{$.Column .}}</a></th>{{end}}</tr></thead>
<tbody>
{{range $r := .S.Rules}}<tr id="r-{{$r.ID}}" class="rule" data-level="{{$r.Level}}" data-readings="{{join $r.Readings " "}}" data-fail="{{$.FailIn $r}}"><th title="{{$r.Text}}"><a href="vectors-{{$.S.Name}}.html#r-{{$r.ID}}">{{$r.ID}}</a></th><td>{{$r.Level}}</td><td>{{$r.Section}}</td>{{range $.Cells $r}}<td class="cell {{verdictClass .Verdict}}" data-impl="{{.Impl.Slug}}"{{if .Title}} title="{{.Title}}"{{end}}><a href="{{.Href}}">{{.Label}}</a></td>{{end}}</tr>
{{end}}</tbody>
</table>
<script src="filter.js"></script>
{{template "foot"}}{{end}}

{{define "vectors"}}{{template "head" (print .Title ": " .S.Name " vectors")}}<nav><a href="index.html">{{.Title}}</a> › <a href="spec-{{.S.Name}}.html">{{.S.Name}}</a> › vectors</nav>
<h1>{{.S.Name}}: the vectors of each rule</h1>
{{range $r := .S.Rules}}<section id="r-{{$r.ID}}" class="rule">
<h2>{{$r.ID}} <span class="level">{{$r.Level}}</span></h2>
<p class="ruletext">{{$r.Text}}{{if $r.ProjectDefined}} <em>(project-defined: {{$r.ProjectDefined}})</em>{{end}}</p>
<p class="section">Section: {{$r.Section}}{{if $r.Readings}}; readings: {{join $r.Readings ", "}}{{end}}</p>
<ul class="vectors">
{{range $.VectorRows $r}}<li class="vector"><code>{{.E.ID}}</code> <span class="op">{{.E.Op}}</span>
{{if .Info.Expected}}<div>expected: {{.Info.Expected}}</div>{{end}}{{if .Info.Comment}}<div class="comment">{{.Info.Comment}}</div>{{end}}{{if .Readings}}<div>readings: {{.Readings}}</div>{{end}}
<div>passed by {{.Passed}}{{range .Others}}; <span class="{{verdictClass .Status}}">{{label .Status}}{{if not (label .Status)}}{{.Status}}{{end}}</span> in {{if .Href}}<a href="{{.Href}}">{{.Impl.Label}}</a>{{else}}{{.Impl.Label}}{{end}}{{end}}</div></li>
{{end}}</ul>
</section>
{{end}}{{template "foot"}}{{end}}

{{define "impl"}}{{template "head" (print .Title ": " .I.Label)}}<nav><a href="index.html">{{.Title}}</a> › {{.I.Label}}</nav>
<h1>{{.I.Label}}</h1>
{{with .I.In.Claim.Header}}<table class="header">
{{with .Implementation}}<tr><th>implementation</th><td>{{.Name}}{{if .Version}} {{.Version}}{{end}}</td></tr>
{{if .Language}}<tr><th>language</th><td>{{.Language}}</td></tr>{{end}}
{{if .Source}}<tr><th>source</th><td>{{.Source}}</td></tr>{{end}}
{{if .Homepage}}<tr><th>homepage</th><td>{{.Homepage}}</td></tr>{{end}}
{{if .Data}}<tr><th>data</th><td>{{data .Data}}</td></tr>{{end}}{{end}}
<tr><th>command</th><td><code>{{join .Command " "}}</code> ({{.Mode}})</td></tr>
<tr><th>run flags</th><td><code>{{join .Args " "}}</code></td></tr>
<tr><th>declared</th><td>operations {{join .Ops ", "}}; capabilities {{join .Capabilities ", "}}; profiles {{join .Profiles ", "}}; readings {{data .Readings}}</td></tr>
<tr><th>conform</th><td>{{.Conform.String}}</td></tr>
<tr><th>vector sets</th><td>{{setHashes .SetHashes}}</td></tr>
<tr><th>run</th><td>{{.Started}} to {{.Ended}}</td></tr>
<tr><th>results digest</th><td><code>{{.ResultsDigest}}</code></td></tr>
</table>{{end}}
<p>Exit status {{.I.In.Claim.ExitCode}}; <a href="claims/{{.I.Slug}}.json">the claim's JSON</a>.</p>
{{range $st := .Specs}}<section id="spec-{{$st.S.Name}}">
<h2><a href="spec-{{$st.S.Name}}.html">{{$st.S.Name}}</a> <img src="{{badgeFile $.I $st.S}}" alt="{{$st.S.Name}} badge"/></h2>
<p>{{$st.T.Passed}} rules passed, {{$st.T.Failing}} failing, {{$st.T.NA}} not applicable or not run; MUST rules passed {{$st.T.MustPassed}} of {{$st.T.MustRules}}; vectors: {{counts $st.T.Vectors}}.</p>
{{range $r := $st.Rules}}<section id="s-{{$r.ID}}" class="rule">
<h3>{{$r.ID}} <span class="level">{{$r.Level}}</span> <span class="{{verdictClass ($.Verdict $r)}}">{{label ($.Verdict $r)}}</span></h3>
<p class="ruletext">{{$r.Text}}</p>
<p class="section">Section: {{$r.Section}} (<a href="vectors-{{$st.S.Name}}.html#r-{{$r.ID}}">every vector of the rule</a>)</p>
<ul class="vectors">
{{range $.Entries $r}}<li class="vector {{verdictClass .E.Status}}"><code>{{.E.ID}}</code> <strong>{{.E.Status}}</strong> <span class="op">{{.E.Op}}</span>
{{if .Info.Expected}}<div>expected: {{.Info.Expected}}</div>{{end}}{{if .E.Got}}<div>actual: {{.E.Got}}</div>{{end}}{{if .E.Reason}}<pre class="reason">{{.E.Reason}}</pre>{{end}}{{if .E.OtherReason}}<div>other reason: {{.E.OtherReason}}</div>{{end}}{{if .Info.Comment}}<div class="comment">{{.Info.Comment}}</div>{{end}}{{if .Readings}}<div>readings: {{.Readings}}</div>{{end}}</li>
{{end}}</ul>
</section>
{{end}}</section>
{{end}}{{template "foot"}}{{end}}
`

const styleCSS = `body { font-family: system-ui, sans-serif; margin: 1em 2em; color: #222; }
nav { margin-bottom: 1em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: left; vertical-align: top; }
table.matrix th.impl { vertical-align: bottom; padding: 4px 2px; }
table.matrix th.impl a { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; font-size: 85%; }
table.matrix td.cell { text-align: center; white-space: nowrap; }
table.matrix tbody th { white-space: nowrap; }
table.matrix td.cell a { color: inherit; text-decoration: none; display: block; }
tr.hidden { display: none; }
.v-pass { background: #cfeccf; }
.v-pass-other { background: #c8ecec; }
.v-fail, .v-xpass, .v-error { background: #f4b4ad; }
.v-warn { background: #f7e7a1; }
.v-xfail { background: #f7d3a1; }
.v-reading { background: #dcc8ef; }
.v-not-judged { background: #f0c0e0; }
.v-not-applicable, .v-not-run, .v-other-reading { background: #eee; color: #777; }
.level { font-size: 80%; color: #555; }
.comment { color: #555; font-style: italic; }
pre.reason { white-space: pre-wrap; margin: 2px 0; }
li.vector { margin-bottom: 6px; }
#filters label { margin-right: 1em; }
`

const filterJS = `"use strict";
// Filters of a matrix page: by level, by reading, rows failing only in
// one implementation, rows failing anywhere.
(function () {
  var level = document.getElementById("f-level");
  var reading = document.getElementById("f-reading");
  var only = document.getElementById("f-only");
  var failing = document.getElementById("f-failing");
  var shown = document.getElementById("f-shown");
  var rows = document.querySelectorAll("#matrix tr.rule");
  function apply() {
    var n = 0;
    rows.forEach(function (tr) {
      var fails = tr.dataset.fail ? tr.dataset.fail.split(" ") : [];
      var ok = (!level.value || tr.dataset.level === level.value) &&
        (!reading.value || tr.dataset.readings.split(" ").indexOf(reading.value) >= 0) &&
        (!only.value || (fails.length === 1 && fails[0] === only.value)) &&
        (!failing.checked || fails.length > 0);
      tr.classList.toggle("hidden", !ok);
      if (ok) { n++; }
    });
    shown.textContent = n + " of " + rows.length + " rules shown";
  }
  [level, reading, only, failing].forEach(function (el) { el.addEventListener("change", apply); });
  apply();
}());
`
