package steps

// HiveRelay rules the reference reports only under fault injection: the
// checks a codec must not make (hiverelay.Permitting rules), switched on to
// show that the vectors catch an implementation that makes them. Their
// scenarios show the accepting side.
func init() {
	unreachableRejections["HR-BLOB-08"] = "the all-zero-nonce check runs only under fault injection: the codec must accept any nonce (features/hiverelay/cell-blob.feature shows a zero nonce decoding)"
	unreachableRejections["HR-FRAME-12"] = "the signature check runs only under fault injection: the codec must accept any signature (features/hiverelay/frame.feature shows a zero signature decoding)"
}
