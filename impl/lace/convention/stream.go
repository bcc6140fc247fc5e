package convention

import (
	"github.com/threespec/conformance/impl/lace"
	"github.com/threespec/conformance/impl/rules"
)

// The testee protocol's convention operations take a record stream whose
// first record is the root and which holds every referenced record.

// FromStream parses a record stream and returns its records as a Store
// together with the first record, the root (nil for an empty stream).
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current).
func FromStream(stream []byte, opt lace.Options) (Store, *lace.Record, error) {
	return fromStream(rules.Current(), stream, opt)
}

func fromStream(c rules.Checks, stream []byte, opt lace.Options) (Store, *lace.Record, error) {
	recs, err := lace.ParseStreamWith(c, stream, opt)
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return Store{}, nil, nil
	}
	return NewStore(recs), recs[0], nil
}

// StreamFile validates the file whose root is the stream's first record and
// returns its length and the BLAKE3-256 digest of its assembled bytes (the
// lace.chunks operation).
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use StreamFileWith.
func StreamFile(stream []byte, opt lace.Options, b Bounds) (uint64, [32]byte, error) {
	return StreamFileWith(rules.Current(), stream, opt, b)
}

// StreamFileWith is StreamFile under the checks c, which the stream's parse
// and the file's consumer both carry.
func StreamFileWith(c rules.Checks, stream []byte, opt lace.Options, b Bounds) (uint64, [32]byte, error) {
	s, root, err := fromStream(c, stream, opt)
	if err != nil {
		return 0, [32]byte{}, err
	}
	if root == nil {
		return 0, [32]byte{}, noRoot(lace.RuleChunkChildExists)
	}
	return FileDigestWith(c, s, root, b)
}

// StreamDirectory validates the directory whose root is the stream's first
// record and returns its logical listing (the lace.directory operation).
//
// TRANSITIONAL (issue 16): it takes the process-global switches
// (rules.Current); callers that carry their own use StreamDirectoryWith.
func StreamDirectory(stream []byte, opt lace.Options, b Bounds) ([]Entry, error) {
	return StreamDirectoryWith(rules.Current(), stream, opt, b)
}

// StreamDirectoryWith is StreamDirectory under the checks c, which the
// stream's parse and the directory's consumer both carry.
func StreamDirectoryWith(c rules.Checks, stream []byte, opt lace.Options, b Bounds) ([]Entry, error) {
	s, root, err := fromStream(c, stream, opt)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, noRoot(lace.RuleDirExists)
	}
	return DirectoryWith(c, s, root, b)
}

// noRoot is the violation of an empty stream: the root it must hold is missing.
func noRoot(id rules.ID) error {
	return &rules.Violation{Rule: id, Offset: 0, Detail: "the stream holds no records: its first record is the root"}
}
