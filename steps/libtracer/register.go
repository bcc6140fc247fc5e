package libtracer

import (
	"github.com/cucumber/godog"

	"github.com/threespec/conformance/steps"
)

// The step registrations, one function per feature file of
// features/libtracer/: each registers the steps its feature uses most, and
// the other features use them too. length.feature, options.feature,
// type_codes.feature and worked_examples.feature use only steps the others
// register.

// register registers every libtracer step for one scenario, whose
// libtracer state is a new state.
func register(sc *godog.ScenarioContext, w *steps.World) {
	s := &state{w: w}
	steps.Register(sc,
		s.frameLayoutSteps(), s.crcSteps(), s.interopSteps(), s.nestingSteps(), s.parserContextsSteps(),
		s.sizeTableSteps(), s.timestampsSteps(), s.trailerLifecycleSteps(), s.truncationSteps(), s.unknownTypesSteps())
}

// frameLayoutSteps are frame_layout.feature's, and every libtracer feature
// uses them: bytes and frames given (each step that gives bytes appends
// them, so that frames follow one another in the order the scenario lists
// them), a tree to encode, received or encoded, and the frames and bytes of
// the answer.
func (s *state) frameLayoutSteps() []steps.Def {
	return []steps.Def{

		steps.Given(`^the bytes "([^"]*)"$`, s.givenBytes),

		steps.Given(`^the frame "([^"]*)" with an? (CRC-32C|CRC-16-CCITT) trailer(.*)$`, s.givenFrameCRC),

		steps.Given(`^a PATH frame with (no children|NAME children .+?)(?: and an outer (CRC-32C?|CRC-16(?:-CCITT)?))?$`, s.givenPath),

		steps.Given(`^the frames:$`, s.givenFrames),

		steps.Given(`^the frame tree to encode:$`, s.givenTreeToEncode),

		steps.When(`^(it|the encoded bytes|the stripped bytes) (?:is|are) received((?: (?:as|on|with) .*)?)$`, s.whenReceived),

		steps.When(`^the tree is encoded (exactly|with the smallest variants)$`, s.whenEncoded),

		steps.Then(`^the frame tree is:$`, s.thenTree),

		steps.Then(`^there (?:is|are) (\d+) frames?$`, s.thenFrameCount),

		steps.Then(`^frame (\d+) takes (\d+) bytes(?: with an overhead of (\d+) bytes?)?$`, s.thenFrameSize),

		steps.Then(`^the bytes are "([^"]*)"$`, s.thenBytes),

		steps.Then(`^the bytes are the bytes received$`, s.thenBytesReceived),
	}
}

// crcSteps are crc.feature's: a byte corrupted or set, and the CRC of a
// frame.
func (s *state) crcSteps() []steps.Def {
	return []steps.Def{

		steps.Given(`^the byte at offset (\d+) is (?:changed to|set to) ([0-9A-Fa-f]{2})$`, s.givenSetByte),

		steps.Given(`^the byte at offset (\d+) is corrupted$`, func(off int) error { return s.givenXor(off, 0xFF) }),

		steps.Then(`^frame (\d+) has (CRC-32C|CRC-16-CCITT) "([0-9a-fA-F]+)"$`, s.thenCRC),
	}
}

// interopSteps are interop.feature's: a VALUE with its options, and its
// size and trailer in the answer.
func (s *state) interopSteps() []steps.Def {
	return []steps.Def{

		steps.Given(`^a VALUE "([^"]*)" with opt "([0-9A-Fa-f]{2})"$`, s.givenValueOpt),

		steps.Then(`^the VALUE frame takes (\d+) bytes with an overhead of (\d+) bytes$`, s.thenValueSize),

		steps.Then(`^the VALUE frame has (no trailer_ts|an absolute trailer_ts|a relative trailer_ts) and (no CRC|a CRC-32C|a CRC-16-CCITT)$`, s.thenValueTrailer),

		steps.Then(`^the frames carry the payloads and wire-times of the first reception$`, s.thenSameContent),
	}
}

// nestingSteps are nesting.feature's: deeply nested frames.
func (s *state) nestingSteps() []steps.Def {
	return []steps.Def{

		steps.Given(`^(\d+) nested user frames around "([^"]*)"$`, s.givenNest),
	}
}

// parserContextsSteps are parser_contexts.feature's: both transports at
// once, and the top-level frames.
func (s *state) parserContextsSteps() []steps.Def {
	return []steps.Def{

		steps.When(`^it is received both as a datagram and on a stream(.*)$`, s.whenReceivedBoth),

		steps.Then(`^there (?:is|are) (\d+) top-level frames?$`, s.thenTopCount),

		steps.Then(`^both transports give the same result$`, s.thenTransportsAgree),
	}
}

// sizeTableSteps are size_table.feature's: a frame wrapped in a stamped
// user record.
func (s *state) sizeTableSteps() []steps.Def {
	return []steps.Def{

		steps.Given(`^it is wrapped in a user record stamped (\S+)$`, s.givenWrapped),
	}
}

// timestampsSteps are timestamps.feature's: the resolved time of a frame.
func (s *state) timestampsSteps() []steps.Def {
	return []steps.Def{

		steps.Then(`^the resolved time of frame (\d+) is "([^"]+)"$`, s.thenResolved),
	}
}

// trailerLifecycleSteps are trailer_lifecycle.feature's: the trailer
// lifecycle, done by the steps on the bytes (the testee protocol has no
// strip or attach operation): the testee then receives the result.
func (s *state) trailerLifecycleSteps() []steps.Def {
	return []steps.Def{

		steps.When(`^its trailer is stripped$`, s.whenStripped),

		steps.Then(`^the (stored|forwarded) bytes are "([^"]*)"$`, s.thenLifecycleBytes),

		steps.When(`^a fresh trailer stamped (\S+)(?: with an? (CRC-32C|CRC-16-CCITT))? is attached(?: to the stripped bytes)?$`, s.whenAttached),

		steps.When(`^the tree is encoded exactly with a trailer stamped (\S+)(?: and an? (CRC-32C|CRC-16-CCITT))?$`, s.whenEncodedWithTrailer),

		steps.Then(`^the payload is unchanged from the first reception$`, s.thenPayloadUnchanged),
	}
}

// truncationSteps are truncation.feature's: the input cut short.
func (s *state) truncationSteps() []steps.Def {
	return []steps.Def{

		steps.Given(`^the input is cut after (\d+) bytes$`, s.givenCut),
	}
}

// unknownTypesSteps are unknown_types.feature's: the payload and rejection
// of one frame.
func (s *state) unknownTypesSteps() []steps.Def {
	return []steps.Def{

		steps.Then(`^frame (\d+) has the payload "([^"]*)"$`, s.thenPayload),

		steps.Then(`^frame (\d+) is rejected by rule ([A-Z0-9-]+) with code "([^"]+)"$`, s.thenFrameRejected),

		steps.Then(`^it is rejected by rule ([A-Z0-9-]+) with code "([^"]+)", or "([^"]+)" in another check order$`, s.thenRejectedInEitherOrder),

		steps.Then(`^frame (\d+) is rejected by rule ([A-Z0-9-]+) with code "([^"]+)", or "([^"]+)" in another check order$`, s.thenFrameRejectedInEitherOrder),
	}
}
