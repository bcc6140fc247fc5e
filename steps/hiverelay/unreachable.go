package hiverelay

// unreachable are the HiveRelay rules the reference reports only under
// fault injection (steps.Wing.Unreachable): the checks a codec must not
// make (hiverelay.Permitting rules), switched on to show that the vectors
// catch an implementation that makes them. Their scenarios show the
// accepting side.
var unreachable = func() map[string]string {
	m := map[string]string{
		"HR-BLOB-08":  "the all-zero-nonce check runs only under fault injection: the codec must accept any nonce (features/hiverelay/cell-blob.feature shows a zero nonce decoding)",
		"HR-FRAME-12": "the signature check runs only under fault injection: the codec must accept any signature (features/hiverelay/frame.feature shows a zero signature decoding)",
	}
	// The Nesting rules (HR-CKPT-12, HR-FRAME-13/14): rejections cite the
	// nested schema's own rule (their scenarios expect HR-RCAP-03,
	// HR-CKPT-08, ...); the code names them only to read a nested value by
	// its layout alone under their fault injection.
	for _, id := range []string{"HR-CKPT-12", "HR-FRAME-13", "HR-FRAME-14"} {
		m[id] = "a Nesting rule: a nested value that breaks its own rule is rejected under that rule (its scenarios expect it); the code names " + id + " only to skip the nested checks under its fault injection"
	}
	return m
}()
