package libtracer

// unreachable are the rules impl/libtracer rejects with only in APIs that libtracer.decode and
// libtracer.encode do not reach (the testee protocol has no attach or
// streaming-send operation; strip and forward, decode arguments, hand
// Strip one TLV and Attach at-rest bytes; no input of reasonable size
// holds a 4 GiB payload), or only under fault injection (the dialects of
// impl/libtracer/dialect.go, which reject what libtracer-01 accepts).
// Their positive scenarios run; impl/libtracer's trailer_test.go holds the
// Strip, Attach and FrameWriter rejections, encode_test.go the 4 GiB one.
// (steps.Wing.Unreachable).
var unreachable = func() map[string]string {
	m := map[string]string{
		"LT-FRAME-05": "FrameWriter refuses a payload longer or shorter than the declared length: streaming send is no protocol operation",
		"LT-LEN-03":   "the encoders refuse a payload above 4 GiB - 1: an encode input would need 8 GiB of hex",
		"LT-LIFE-01":  "Attach refuses bytes that are not at rest: forward hands it Strip's at-rest bytes, and attach is no operation of its own",
		"LT-LIFE-03":  "Strip refuses input holding more than one TLV: strip and forward hand it one top-level TLV at a time",
	}
	for id, fault := range map[string]string{
		"LT-FRAME-12": "alignment required", "LT-FRAME-13": "an empty payload taken for a zeroed buffer",
		"LT-LEN-02": "an LL=1 length above 65535 refused", "LT-NEST-06": "a structured frame without children refused",
		"LT-TYPE-07": "an unknown outer type taken to break framing", "LT-TRUNC-09": "the end of a stream taken for a broken transport",
		"LT-UNK-01": "an unknown type code stopping the receiver",
		"LT-TS-08":  "an absolute stamp above 2^63-1 read as a negative int64 time and refused",
	} {
		m[id] = "rejects only under its own fault injection (impl/libtracer/dialect.go: " + fault + "), a mistake libtracer-01 forbids"
	}
	return m
}()
