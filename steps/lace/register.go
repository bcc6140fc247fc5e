package lace

import (
	"context"
	"fmt"
	"slices"

	"github.com/cucumber/godog"

	"github.com/threespec/conformance/impl/lace/lacespec"
	"github.com/threespec/conformance/steps"
)

// The step registrations, one function per feature file of features/lace/:
// each registers the steps its feature uses most, and the other features use
// them too. 11-nesting.feature, 13-vector.feature and 14-examples.feature
// use only steps the others register.

// register registers every Lace step for one scenario, whose Lace state is
// a new scenario.
func register(sc *godog.ScenarioContext, w *steps.World) {
	s := &scenario{w: w, rv: resolver{records: map[string]*builtRecord{}}, omitted: map[string]bool{}}
	steps.Register(sc,
		s.glyphSteps(), s.streamSteps(), s.fieldSteps(), s.blobSteps(), s.plexSteps(), s.sealSteps(),
		s.constructorSteps(), s.linksSteps(), s.chunksSteps(), s.directorySteps(), s.sizeSteps())
	// godog keeps every scenario's step definitions, and with them this
	// state, until the run ends; drop the inputs (up to 32 MiB each)
	// when the scenario is over.
	sc.After(func(ctx context.Context, _ *godog.Scenario, _ error) (context.Context, error) {
		*s = scenario{}
		return ctx, nil
	})
}

// glyphSteps are 01-glyph.feature's: records given as text or bytes, parsed, and accepted as a form.
func (s *scenario) glyphSteps() []steps.Def {
	return slices.Concat([]steps.Def{
		steps.Given(`^the Lace record:$`, s.theRecord),
		steps.Given(`^the Lace record "([\w-]+)":$`, s.theNamedRecord),
		steps.Given(`^a file named "([^"]+)" with the Lace record:$`, func(_ string, doc *godog.DocString) error {
			// The name is never sent: readers are given bytes (LACE-GLYPH-10).
			return s.theRecord(doc)
		}),
		steps.Given(`^a file named "([^"]+)" with the bytes `+quoted+`$`, func(_, text string) error { return s.theBytes(text) }),
		steps.Given(`^the text `+quoted+`$`, s.theBytes),
		steps.Given(`^the text `+quoted+` follows the record$`, s.appendBytes),
		steps.Then(`^it is accepted as an? (blob|plex|seal)$`, func(form string) error { return s.acceptedAs(form, "") }),
		steps.Then(`^it is accepted as an? (blob|plex|seal) with hash `+quoted+`$`, s.acceptedAs),
		steps.Then(`^its hash is the hash of "([\w-]+)"$`, func(name string) error {
			r, ok := s.rv.records[name]
			if !ok {
				return fmt.Errorf("no record named %q", name)
			}
			return s.resultField("hash", r.hashText())
		}),
	}, s.parseSteps(`it is parsed`, lacespec.OpRecord, func() []byte { return s.input }))
}

// streamSteps are 02-stream.feature's: streams of records, parsed, and their records.
func (s *scenario) streamSteps() []steps.Def {
	return slices.Concat([]steps.Def{
		steps.Given(`^a stream of the records ((?:`+quoted+`(?:, | and )?)+)$`, func(list string) error { return s.stream(listArgs(list)) }),
		steps.Given(`^a file named "[^"]+" holding the records ((?:`+quoted+`(?:, | and )?)+)$`, func(list string) error {
			// The name is never sent: it marks a stream by convention only (LACE-STREAM-06).
			return s.stream(listArgs(list))
		}),
		steps.Given(`^an empty stream$`, func() error { s.input = []byte{}; return nil }),
		steps.Then(`^the stream holds no records$`, func() error { return s.hashesAre(nil) }),
		steps.Then(`^the stream holds the records ((?:`+quoted+`(?:, | and )?)+)$`, func(list string) error {
			return s.hashesAre(listArgs(list))
		}),
	}, s.parseSteps(`it is parsed as a stream`, lacespec.OpStream, func() []byte { return s.input }))
}

// fieldSteps are 03-field.feature's: a field line of a given length.
func (s *scenario) fieldSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^its field line is (\d+) bytes$`, s.fieldLineIs),
	}
}

// blobSteps are 04-blob.feature's: Blobs built from their data, and what the answer says of the data.
func (s *scenario) blobSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^a Blob with data `+quoted+`$`, func(data string) error { return s.blob("", data) }),
		steps.Given(`^the Blob "([\w-]+)" with data `+quoted+`$`, s.blob),
		steps.Then(`^it is accepted as an? (blob|plex|seal) with the hash its glyph line states$`, func(form string) error {
			return s.acceptedAs(form, s.glyphHash(s.input))
		}),
		steps.Then(`^its data is (\d+) bytes$`, func(n int) error { return s.resultNumber("data_length", n) }),
	}
}

// plexSteps are 05-plex.feature's: Plexes built from their data and fields, and the fields of the answer.
func (s *scenario) plexSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^a Plex with fields? ((?:`+quoted+`(?:, | and )?)+)$`, func(list string) error { return s.plexFields("", "", listArgs(list)) }),
		steps.Given(`^a Plex with data `+quoted+` and fields? ((?:`+quoted+`(?:, | and )?)+)$`, func(data, list string) error {
			return s.plexFields("", data, listArgs(list))
		}),
		steps.Given(`^a Plex with (\d+) fields `+quoted+`$`, func(n int, line string) error {
			lines := make([]string, n)
			for i := range lines {
				lines[i] = line
			}
			return s.plexFields("", "", lines)
		}),
		steps.Given(`^(?:a|the) Plex(?: "([\w-]+)")? with data `+quoted+` and (\d+) fields `+quoted+`$`, func(name, data string, n int, line string) error {
			lines := make([]string, n)
			for i := range lines {
				lines[i] = line
			}
			return s.plexFields(name, data, lines)
		}),
		steps.Given(`^the Plex "([\w-]+)" with the fields:$`, func(name string, doc *godog.DocString) error {
			return s.plexFields(name, "", docLines(doc))
		}),
		steps.Given(`^the Plex "([\w-]+)" with data `+quoted+` and the fields:$`, func(name, data string, doc *godog.DocString) error {
			return s.plexFields(name, data, docLines(doc))
		}),
		steps.Given(`^a constructor specification with (\d+) fields `+quoted+` and `+quoted+`$`, func(n int, name, value string) error {
			s.spec = &constructInput{}
			for range n {
				s.spec.Fields = append(s.spec.Fields, [2]string{name, value})
			}
			return nil
		}),
		steps.Then(`^its fields are:$`, s.fieldsAre),
	}
}

// sealSteps are 06-seal.feature's: a Seal over a Plex, and what the answer says of the embedded records, By and Mark.
func (s *scenario) sealSteps() []steps.Def {
	return slices.Concat([]steps.Def{
		steps.Given(`^the Seal "([\w-]+)" over the Plex "([\w-]+)", signed with the stand-in key$`, s.seal),
		steps.Then(`^its Mark is verified$`, func() error { return s.markStatus("verified") }),
		steps.Then(`^its Mark is not checked$`, func() error { return s.markStatus("not-checked") }),
	}, s.resultTextSteps())
}

// constructorSteps are 07-constructor.feature's: constructor specifications, constructed, and the record built.
func (s *scenario) constructorSteps() []steps.Def {
	return slices.Concat([]steps.Def{
		steps.Given(`^an empty constructor specification$`, func() error { s.spec = &constructInput{}; return nil }),
		steps.Given(`^a constructor specification with data `+quoted+`$`, func(data string) error {
			s.spec = &constructInput{}
			return s.specData(data)
		}),
		steps.Given(`^a constructor specification with the fields:$`, func(t *godog.Table) error {
			s.spec = &constructInput{}
			return s.specFields(t)
		}),
		steps.Given(`^the data is `+quoted+`$`, s.specData),
		steps.Given(`^the By-secret is 32 bytes of 0x([0-9a-f]{2})$`, func(h string) error { return s.specBytes(func(v *string) { s.spec.Secret = v }, h) }),
		steps.Given(`^the auxRand32 is 32 bytes of 0x([0-9a-f]{2})$`, func(h string) error { return s.specBytes(func(v *string) { s.spec.Aux = v }, h) }),
		steps.When(`^it is constructed$`, s.construct),
		steps.Then(`^the constructed record is:$`, s.constructedIs),
		steps.Then(`^the constructed record is the (?:Lace )?record "([\w-]+)"$`, s.constructedIsNamed),
		steps.Then(`^it constructs an? (blob|plex|seal) with hash `+quoted+`$`, s.constructs),
		steps.Then(`^it constructs an? (blob|plex|seal)$`, func(form string) error { return s.constructs(form, "") }),
	}, s.parseSteps(`the constructed record is parsed`, lacespec.OpRecord, func() []byte { return s.constructed }))
}

// linksSteps are 08-links.feature's: the record links of the answer.
func (s *scenario) linksSteps() []steps.Def {
	return []steps.Def{
		steps.Then(`^its record links are:$`, s.linksAre),
		steps.Then(`^it has no record links$`, func() error { return s.linksAre(nil) }),
		steps.Then(`^the field `+quoted+` is not a record link, by rule ([A-Z0-9-]+)$`, s.malformedLink),
	}
}

// chunksSteps are 09-chunks.feature's: chunk trees, assembled.
func (s *scenario) chunksSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^the chunk node "([\w-]+)" linking "([\w-]+)" (\d+) times$`, s.chunkFanout),
		steps.Given(`^the record "([\w-]+)" is left out of the stream$`, func(name string) error {
			if _, ok := s.rv.records[name]; !ok {
				return fmt.Errorf("no record named %q", name)
			}
			s.omitted[name] = true
			return nil
		}),
		steps.When(`^the chunks of "([\w-]+)" are assembled(?: with (.+))?$`, func(root, with string) error {
			return s.convention(lacespec.OpChunks, root, with)
		}),
		steps.When(`^the chunks of an empty stream are assembled$`, func() error {
			return s.call(lacespec.OpChunks, nil, []byte{})
		}),
		steps.Then(`^the assembled file is `+quoted+`$`, s.fileIs),
		steps.Then(`^the assembled file is empty$`, func() error { return s.fileIs("") }),
	}
}

// directorySteps are 10-directory.feature's: directories, listed.
func (s *scenario) directorySteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^the directory "([\w-]+)" with (\d+) files named "([^"]*)N" linking "([\w-]+)"$`, func(name string, n int, prefix, target string) error {
			return s.directoryFanout(name, n, prefix, target, nil)
		}),
		steps.Given(`^the directory "([\w-]+)" with (\d+) files named "([^"]*)N" linking "([\w-]+)" and the fields:$`, s.directoryFanout),
		steps.Given(`^the directory "([\w-]+)" heading a chain of (\d+) child directories$`, s.directoryChain),
		steps.Given(`^a stream of every record of the scenario, "([\w-]+)" first$`, func(root string) error {
			b, err := s.conventionStream(root)
			s.input = b
			return err
		}),
		steps.When(`^the directory "([\w-]+)" is listed(?: with (.+))?$`, func(root, with string) error {
			return s.convention(lacespec.OpDirectory, root, with)
		}),
		steps.When(`^the directory of an empty stream is listed$`, func() error {
			return s.call(lacespec.OpDirectory, nil, []byte{})
		}),
		steps.Then(`^the listing is:$`, s.listingIs),
		steps.Then(`^the listing is empty$`, func() error { return s.listingIs(nil) }),
		steps.Then(`^the listing has (\d+) entries$`, s.listingCount),
	}
}

// sizeSteps are 12-size.feature's: the size of the record.
func (s *scenario) sizeSteps() []steps.Def {
	return []steps.Def{
		steps.Given(`^the record is (\d+) bytes$`, s.inputIs),
	}
}

// parseSteps ask the implementation to parse what subject names (the
// input, the constructed record) as op: with the default Mark checking, or
// with the one the step names (`<subject> with mark checking "none"`).
func (s *scenario) parseSteps(subject, op string, input func() []byte) []steps.Def {
	return []steps.Def{
		steps.When(`^`+subject+`$`, func() error { return s.call(op, nil, input()) }),
		steps.When(`^`+subject+` with mark checking "([\w-]+)"$`, func(m string) error {
			return s.call(op, lacespec.Args{Mark: m}, input())
		}),
	}
}

// resultTextSteps compare what the answer says of the records a Seal
// embeds, its By and its Mark with the text the step gives.
func (s *scenario) resultTextSteps() []steps.Def {
	var defs []steps.Def
	for _, r := range []struct{ what, member string }{
		{"embedded Plex", "plex"}, {"embedded Blob", "blob"}, {"By", "by"}, {"Mark", "mark"},
	} {
		defs = append(defs, steps.Then(`^its `+r.what+` is `+quoted+`$`, func(h string) error { return s.resultText(r.member, h) }))
	}
	return defs
}
