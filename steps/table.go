package steps

import (
	"regexp"
	"sync"

	"github.com/cucumber/godog"
)

// Def is one row of a registration table: a step definition's keyword,
// expression and handler. The handler is what godog's ScenarioContext.Given
// takes: a function of the expression's groups (and a trailing
// *godog.DocString or *godog.Table) returning an error.
type Def struct {
	keyword keyword
	expr    string
	handler any
}

type keyword uint8

const (
	given keyword = iota
	when
	then
)

// Given, When and Then make the rows of a registration table, each for
// steps of its keyword (an And or But step takes the keyword before it).
func Given(expr string, handler any) Def {
	return Def{given, expr, handler}
}

// When makes a row for When steps (see Given).
func When(expr string, handler any) Def {
	return Def{when, expr, handler}
}

// Then makes a row for Then steps (see Given).
func Then(expr string, handler any) Def {
	return Def{then, expr, handler}
}

// Register registers every row of the tables on sc. Each expression is
// compiled once per process: godog would compile a string expression again
// for every scenario.
func Register(sc *godog.ScenarioContext, tables ...[]Def) {
	for _, t := range tables {
		for _, d := range t {
			re := compiled(d.expr)
			switch d.keyword {
			case given:
				sc.Given(re, d.handler)
			case when:
				sc.When(re, d.handler)
			default:
				sc.Then(re, d.handler)
			}
		}
	}
}

var exprs sync.Map // expression -> *regexp.Regexp

func compiled(expr string) *regexp.Regexp {
	if re, ok := exprs.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re, _ := exprs.LoadOrStore(expr, regexp.MustCompile(expr))
	return re.(*regexp.Regexp)
}
