// Package csvfield splits CSV lines into fields and writes fields, as RFC
// 4180 has them, for the files of named items that lib/triplets and
// lib/embed read and write: one record a line, fields in double quotes
// where they hold a comma or a quote.
package csvfield

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Split appends the fields of one CSV line to dst, read as RFC 4180
// reads them: fields are separated by commas, and a field in double quotes
// may hold commas and quotes, a quote written twice (""). Unquoted fields
// lose surrounding white space; quoted ones keep everything between their
// quotes. A record cannot span lines (oe's names hold no line breaks), so
// an unterminated quote is an error. Quoted fields are unescaped into
// *scratch, which the next call reuses: callers copy what they keep.
func Split(dst [][]byte, line []byte, scratch *[]byte) ([][]byte, error) {
	if bytes.IndexByte(line, '"') < 0 { // the common case: split on commas
		for {
			i := bytes.IndexByte(line, ',')
			if i < 0 {
				return append(dst, bytes.TrimSpace(line)), nil
			}
			dst = append(dst, bytes.TrimSpace(line[:i]))
			line = line[i+1:]
		}
	}
	*scratch = (*scratch)[:0]
	for {
		f := bytes.TrimLeftFunc(line, unicode.IsSpace)
		if len(f) > 0 && f[0] == '"' {
			start := len(*scratch)
			i := 1
			for {
				j := bytes.IndexByte(f[i:], '"')
				if j < 0 {
					return nil, errors.New("unterminated quoted field (a field cannot span lines)")
				}
				*scratch = append(*scratch, f[i:i+j]...)
				i += j + 1
				if i == len(f) || f[i] != '"' {
					break
				}
				*scratch = append(*scratch, '"')
				i++
			}
			end := len(*scratch)
			dst = append(dst, (*scratch)[start:end:end])
			rest := bytes.TrimLeftFunc(f[i:], unicode.IsSpace)
			if len(rest) == 0 {
				return dst, nil
			}
			if rest[0] != ',' {
				return nil, fmt.Errorf("%q after a quoted field, want a comma", clip(rest))
			}
			line = rest[1:]
			continue
		}
		i := bytes.IndexByte(f, ',')
		field := f
		if i >= 0 {
			field, line = f[:i], f[i+1:]
		}
		field = bytes.TrimSpace(field)
		if bytes.IndexByte(field, '"') >= 0 {
			return nil, fmt.Errorf("a quote inside the unquoted field %q (quote the whole field and double its quotes)", clip(field))
		}
		dst = append(dst, field)
		if i < 0 {
			return dst, nil
		}
	}
}

// Append appends v to dst as a CSV field that Split reads back
// as v: in quotes when it holds a comma or quote, begins or ends with white
// space, or begins with '#' (which would start a comment line).
func Append(dst []byte, v string) []byte {
	if !needsQuotes(v) {
		return append(dst, v...)
	}
	dst = append(dst, '"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, v[i])
	}
	return append(dst, '"')
}

func needsQuotes(v string) bool {
	if v == "" {
		return false
	}
	first, _ := utf8.DecodeRuneInString(v)
	last, _ := utf8.DecodeLastRuneInString(v)
	return first == '#' || unicode.IsSpace(first) || unicode.IsSpace(last) ||
		strings.ContainsAny(v, ",\"")
}

// clip shortens b for an error message.
func clip(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
