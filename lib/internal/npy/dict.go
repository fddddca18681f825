package npy

import (
	"bytes"
	"fmt"
	"strconv"
)

// parseDict parses the restricted Python literal that .npy headers use:
// a dict with string keys whose values are strings, True/False, or tuples
// of non-negative integers. Values come back as string, bool and []int64.
func parseDict(text []byte) (map[string]any, error) {
	p := pyParser{s: text}
	p.space()
	if !p.eat('{') {
		return nil, fmt.Errorf("dictionary does not start with '{'")
	}
	d := map[string]any{}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		key, err := p.str()
		if err != nil {
			return nil, fmt.Errorf("key: %w", err)
		}
		p.space()
		if !p.eat(':') {
			return nil, fmt.Errorf("missing ':' after key %q", key)
		}
		p.space()
		val, err := p.value()
		if err != nil {
			return nil, fmt.Errorf("value of %q: %w", key, err)
		}
		if _, dup := d[key]; dup {
			return nil, fmt.Errorf("duplicate key %q", key)
		}
		d[key] = val
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if !p.eat('}') {
			return nil, fmt.Errorf("missing ',' or '}' after value of %q", key)
		}
		break
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected text after the dictionary")
	}
	return d, nil
}

// pyParser is a cursor over header text.
type pyParser struct {
	s []byte
	i int
}

func (p *pyParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\n' || p.s[p.i] == '\t' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *pyParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str parses a quoted string without escapes, as NumPy writes them.
func (p *pyParser) str() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", fmt.Errorf("want a quoted string")
	}
	q := p.s[p.i]
	end := bytes.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", fmt.Errorf("unterminated string")
	}
	v := string(p.s[p.i+1 : p.i+1+end])
	p.i += end + 2
	return v, nil
}

func (p *pyParser) value() (any, error) {
	switch {
	case p.i >= len(p.s):
		return nil, fmt.Errorf("missing value")
	case p.s[p.i] == '\'' || p.s[p.i] == '"':
		return p.str()
	case bytes.HasPrefix(p.s[p.i:], []byte("True")):
		p.i += 4
		return true, nil
	case bytes.HasPrefix(p.s[p.i:], []byte("False")):
		p.i += 5
		return false, nil
	case p.s[p.i] == '(':
		return p.tuple()
	}
	return nil, fmt.Errorf("unsupported value at %.40q", p.s[p.i:])
}

// tuple parses "(a, b, ...)" of non-negative integers, including "()" and
// the one-element form "(a,)".
func (p *pyParser) tuple() ([]int64, error) {
	p.i++ // '('
	vals := []int64{}
	for {
		p.space()
		if p.eat(')') {
			return vals, nil
		}
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if start == p.i {
			return nil, fmt.Errorf("want a non-negative integer at %.40q", p.s[start:])
		}
		v, err := strconv.ParseInt(string(p.s[start:p.i]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("dimension %q: %w", p.s[start:p.i], err)
		}
		vals = append(vals, v)
		p.space()
		if p.eat(',') {
			continue
		}
		if !p.eat(')') {
			return nil, fmt.Errorf("missing ',' or ')' in tuple")
		}
		return vals, nil
	}
}
