package vectorset

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Numbers compare by their exact decimal value (docs/PROTOCOL.md, "What
// conform compares"): 1, 1.0, 10e-1 and 0.1e1 are equal, and so are the
// two spellings of 18446744073709551615 in the judge's tests, but
// 11.000…0001 is not 11 however many zeros it carries, and a number
// that is not an integer never equals one. The comparison is linear in
// the literals' length: a testee's number of a million digits costs a
// pass over it, not the quadratic conversion big.Float.SetString makes
// (issue 30, item 2), and no precision is lost (item 11: at 256 bits,
// 11 followed by 80 digits of a fraction compared equal to 11).

func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := numberKey(string(a))
	y, ok2 := numberKey(string(b))
	return ok1 && ok2 && x == y
}

// numberKey returns the canonical text of the value of the JSON number
// literal s: "0" for zero (of either sign), otherwise an optional "-",
// the significant digits d1d2...dn (no leading or trailing zeros) and
// "e" followed by the exponent X in value = 0.d1d2...dn × 10^X, in
// decimal. Two literals have the same value exactly when their keys are
// equal. ok is false when s is not a JSON number literal.
func numberKey(s string) (key string, ok bool) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[intStart:i]
	if intPart == "" || len(intPart) > 1 && intPart[0] == '0' {
		return "", false
	}
	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		fracStart := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = s[fracStart:i]
		if frac == "" {
			return "", false
		}
	}
	expNeg, expDigits := false, "0"
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		expStart := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		expDigits = s[expStart:i]
		if expDigits == "" {
			return "", false
		}
	}
	if i != len(s) {
		return "", false
	}

	// The significant digits of intPart followed by frac, and where the
	// point stands among them: value = 0.digits × 10^(point + exponent).
	// (JSON allows no leading zero in intPart but "0" itself.)
	var digits string
	var point int64
	if intPart != "0" {
		digits, point = strings.TrimRight(intPart+frac, "0"), int64(len(intPart))
	} else {
		f := strings.TrimLeft(frac, "0")
		digits, point = strings.TrimRight(f, "0"), -int64(len(frac)-len(f))
	}
	if digits == "" {
		return "0", true
	}
	var b strings.Builder
	b.Grow(len(digits) + len(expDigits) + 4)
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(digits)
	b.WriteByte('e')
	b.WriteString(addExponent(expNeg, strings.TrimLeft(expDigits, "0"), point))
	return b.String(), true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// addExponent returns the decimal text of (-1)^neg × mag + k, where mag
// is a magnitude in decimal without leading zeros ("" for zero) and k is
// bounded by a literal's length (|k| < 10^17): in int64 arithmetic when
// mag has at most 18 digits, else over mag's last 18 digits with a carry
// or borrow into the rest (|mag| is then at least 10^18, larger than |k|,
// so the sign is mag's).
func addExponent(neg bool, mag string, k int64) string {
	if len(mag) <= 18 {
		var e int64
		if mag != "" {
			e, _ = strconv.ParseInt(mag, 10, 64)
		}
		if neg {
			e = -e
		}
		return strconv.FormatInt(e+k, 10)
	}
	if neg {
		k = -k // |mag| - k, and the sign in front
	}
	const base = 1_000_000_000_000_000_000 // 10^18
	head, tail := mag[:len(mag)-18], mag[len(mag)-18:]
	t, _ := strconv.ParseInt(tail, 10, 64)
	t += k
	switch {
	case t >= base:
		head, t = decimalStep(head, +1), t-base
	case t < 0:
		head, t = decimalStep(head, -1), t+base
	}
	out := strings.TrimLeft(head, "0") + leftPad18(t)
	out = strings.TrimLeft(out, "0")
	if neg {
		return "-" + out
	}
	return out
}

// decimalStep adds +1 or -1 to the decimal digits d (the head of a
// magnitude of at least 10^18: never below zero after a step down).
func decimalStep(d string, step int) string {
	b := []byte(d)
	for i := len(b) - 1; i >= 0; i-- {
		if step > 0 {
			if b[i] < '9' {
				b[i]++
				return string(b)
			}
			b[i] = '0'
		} else {
			if b[i] > '0' {
				b[i]--
				return string(b)
			}
			b[i] = '9'
		}
	}
	if step > 0 {
		return "1" + string(b)
	}
	return string(b) // not reached: d was not zero
}

func leftPad18(t int64) string {
	s := strconv.FormatInt(t, 10)
	return strings.Repeat("0", 18-len(s)) + s
}
