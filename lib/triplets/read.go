package triplets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/oe-lab/oe/lib/internal/csvfield"
)

// Form is how a CSV file states its comparisons.
type Form int

const (
	// FormTriplets is one triplet "i,j,k" a line: i is closer to j than
	// to k (WriteCSV; .npy files hold the same rows).
	FormTriplets Form = iota
	// FormResponses is one answered query a line under a header naming
	// the columns head, left, right and answer (WriteResponsesCSV).
	FormResponses
)

// String names the form as oerun prints it.
func (f Form) String() string {
	switch f {
	case FormTriplets:
		return "triplets"
	case FormResponses:
		return "responses"
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// Columns names the columns of a responses file: the query's head (the
// reference item), its two candidates, and the answer, the candidate a
// person chose as closer to the head.
type Columns struct {
	Head, Left, Right, Answer string
}

// DefaultColumns are the column names of a responses header.
var DefaultColumns = Columns{Head: "head", Left: "left", Right: "right", Answer: "answer"}

// withDefaults fills empty column names from DefaultColumns and checks that
// the four differ.
func (c Columns) withDefaults() (Columns, error) {
	for _, p := range []struct{ v, def *string }{
		{&c.Head, &DefaultColumns.Head}, {&c.Left, &DefaultColumns.Left},
		{&c.Right, &DefaultColumns.Right}, {&c.Answer, &DefaultColumns.Answer},
	} {
		*p.v = strings.TrimSpace(*p.v)
		if *p.v == "" {
			*p.v = *p.def
		}
	}
	l := c.list()
	for a := range l {
		for b := a + 1; b < len(l); b++ {
			if strings.EqualFold(l[a], l[b]) {
				return c, fmt.Errorf("triplets: responses columns must have different names, got %q twice", l[a])
			}
		}
	}
	return c, nil
}

func (c Columns) list() [4]string { return [4]string{c.Head, c.Left, c.Right, c.Answer} }

// find returns the position of each of the four columns in a header
// (compared without regard to case); ok is false when one is missing.
func (c Columns) find(header [][]byte) (at [4]int, ok bool, err error) {
	for w, want := range c.list() {
		at[w] = -1
		for p, f := range header {
			if !bytes.EqualFold(f, []byte(want)) {
				continue
			}
			if at[w] >= 0 {
				return at, false, fmt.Errorf("column %q appears twice in the header", want)
			}
			at[w] = p
		}
		if at[w] < 0 {
			return at, false, nil
		}
	}
	return at, true, nil
}

// ReadOptions say how ReadCSVWith and ReadFileWith read a file.
type ReadOptions struct {
	// N is the number of items, as for ReadCSV: 0 takes it from the file.
	// For named items it must be 0 or the number of names.
	N int
	// Columns names the columns of a responses header; an empty field takes
	// its name from DefaultColumns.
	Columns Columns
}

// ReadCSVWith reads comparisons from a CSV file in either form, and says
// which; name is used in errors.
//
// Blank lines and lines starting with '#' are skipped; a comment "# n=N"
// before the first record declares the number of items. Fields are read as
// RFC 4180 has them (see lib/internal/csvfield), with white space around unquoted
// fields dropped. The first record is a header when it is exactly "i,j,k"
// (FormTriplets) or holds the four columns of opt.Columns, in any order
// and case, among others (FormResponses); any other first record is data.
// A triplet row is three items; a responses row has the header's number of
// fields, and its answer is the chosen candidate (its name or number) or
// the word left or right: a candidate's name takes precedence over the
// word. Each responses row is one triplet (head, chosen, other); repeated
// answers are repeated triplets.
//
// Items are all numbers (indices 0..N-1, as ReadCSV reads them) or all
// names (any other token; see CheckName): names are numbered in increasing
// byte order and returned in Set.Names, and a named file's items are the
// names it uses. Named and numeric items in one file are an error, as are
// an empty item, a triplet that repeats an item, and an answer that is
// neither candidate; errors name the file, line, field and value.
func ReadCSVWith(r io.Reader, name string, opt ReadOptions) (*Set, Form, error) {
	if err := checkN(name, opt.N); err != nil {
		return nil, 0, err
	}
	cols, err := opt.Columns.withDefaults()
	if err != nil {
		return nil, 0, err
	}
	rd := &csvReader{name: name, n: opt.N, cols: cols, ids: map[string]int32{}, top: -1}
	if err := rd.read(r); err != nil {
		return nil, 0, err
	}
	s, err := rd.set()
	return s, rd.form, err
}

// csvReader is the state of ReadCSVWith.
type csvReader struct {
	name string
	n    int // items: the caller's or the declared count, 0 until known
	cols Columns

	line    int
	started bool // seen the first record
	form    Form
	at      [4]int // responses: the columns of head, left, right, answer
	width   int    // responses: the header's number of fields

	kindKnown bool // whether the first item has said numbered or named
	named     bool
	kindLine  int // the line of the first item
	ids       map[string]int32
	names     []string // in order of first use; ids index them
	idx       []int32
	top       int32 // numbered items: the largest index so far,
	topLine   int   // on this line
}

func (rd *csvReader) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxCSVLine)
	var fields [][]byte
	var scratch []byte
	for sc.Scan() {
		rd.line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		if text[0] == '#' {
			if err := rd.comment(text); err != nil {
				return err
			}
			continue
		}
		var err error
		if fields, err = csvfield.Split(fields[:0], text, &scratch); err != nil {
			return rd.errorf("%v", err)
		}
		if !rd.started {
			rd.started = true
			header, err := rd.header(fields)
			if err != nil {
				return err
			}
			if header {
				continue
			}
		}
		if err := rd.record(fields); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return fmt.Errorf("triplets: %s:%d: line longer than %d bytes", rd.name, rd.line+1, maxCSVLine)
		}
		return fmt.Errorf("triplets: %s: %w", rd.name, err)
	}
	return nil
}

// comment handles a '#' line: a "# n=N" before the first record declares
// the number of items; any other comment is skipped.
func (rd *csvReader) comment(text []byte) error {
	if rd.started {
		return nil
	}
	declared, ok, err := parseDeclaredN(text)
	if err != nil {
		return rd.errorf("%v", err)
	}
	if !ok {
		return nil
	}
	if rd.n > 0 && declared != rd.n {
		return rd.errorf("file declares n=%d items, caller expects n=%d", declared, rd.n)
	}
	if err := checkN(rd.name, declared); err != nil || declared == 0 {
		return rd.errorf("declared item count n=%d out of range [3, %d]", declared, MaxItems)
	}
	rd.n = declared
	return nil
}

// header reports whether the first record is a header, setting the form.
func (rd *csvReader) header(fields [][]byte) (bool, error) {
	if len(fields) == 3 && string(fields[0]) == "i" && string(fields[1]) == "j" && string(fields[2]) == "k" {
		return true, nil
	}
	at, ok, err := rd.cols.find(fields)
	if err != nil {
		return false, rd.errorf("%v", err)
	}
	if !ok {
		if len(fields) != 3 {
			c := rd.cols
			return false, rd.errorf("want 3 comma-separated fields i,j,k, or a responses header with the columns %s, %s, %s and %s; got %d fields in %q",
				c.Head, c.Left, c.Right, c.Answer, len(fields), clip(bytes.Join(fields, []byte{','})))
		}
		return false, nil
	}
	rd.form, rd.at, rd.width = FormResponses, at, len(fields)
	return true, nil
}

// record adds the triplet of one data record.
func (rd *csvReader) record(fields [][]byte) error {
	var row [3]int32
	if rd.form == FormTriplets {
		if len(fields) != 3 {
			return rd.errorf("want 3 comma-separated fields i,j,k, got %d in %q", len(fields), clip(bytes.Join(fields, []byte{','})))
		}
		for c, f := range fields {
			v, err := rd.item(f)
			if err != nil {
				return rd.errorf("field %d: %v", c+1, err)
			}
			row[c] = v
		}
	} else {
		if len(fields) != rd.width {
			return rd.errorf("want %d fields as in the header, got %d", rd.width, len(fields))
		}
		var cand [3]int32
		for c := range cand {
			v, err := rd.item(fields[rd.at[c]])
			if err != nil {
				return rd.errorf("field %d (%s): %v", rd.at[c]+1, rd.cols.list()[c], err)
			}
			cand[c] = v
		}
		left, err := rd.answer(fields[rd.at[3]], fields[rd.at[1]], fields[rd.at[2]], cand[1], cand[2])
		if err != nil {
			return rd.errorf("field %d (%s): %v", rd.at[3]+1, rd.cols.Answer, err)
		}
		row = [3]int32{cand[0], cand[1], cand[2]}
		if !left {
			row[1], row[2] = row[2], row[1]
		}
	}
	if row[0] == row[1] || row[0] == row[2] || row[1] == row[2] {
		if rd.named {
			return rd.errorf("items (%s, %s, %s) are not distinct", rd.names[row[0]], rd.names[row[1]], rd.names[row[2]])
		}
		return rd.errorf("indices (%d, %d, %d) are not distinct", row[0], row[1], row[2])
	}
	if m := max(row[0], row[1], row[2]); !rd.named && m > rd.top {
		rd.top, rd.topLine = m, rd.line
	}
	rd.idx = append(rd.idx, row[0], row[1], row[2])
	return nil
}

// item returns the number of the item a field names or numbers. The first
// item fixes whether the file's items are numbered or named.
func (rd *csvReader) item(f []byte) (int32, error) {
	if len(f) == 0 {
		return 0, errors.New("empty item: neither a name nor a number")
	}
	num := isInteger(f)
	if !rd.kindKnown {
		rd.kindKnown, rd.named, rd.kindLine = true, !num, rd.line
	}
	switch {
	case num && rd.named:
		return 0, fmt.Errorf("%q is a number, but line %d names its items (named and numeric items cannot mix)", clip(f), rd.kindLine)
	case !num && !rd.named:
		return 0, fmt.Errorf("%q is a name, but line %d numbers its items (named and numeric items cannot mix)", clip(f), rd.kindLine)
	case num:
		return parseIndex(f, int64(rd.n))
	}
	if id, ok := rd.ids[string(f)]; ok {
		return id, nil
	}
	nm := string(f)
	if err := CheckName(nm); err != nil {
		return 0, err
	}
	id := int32(len(rd.names))
	rd.names = append(rd.names, nm)
	rd.ids[nm] = id
	return id, nil
}

// answer reports whether ans chose the left candidate (whose field and
// number are lf, l) or the right one (rf, r).
func (rd *csvReader) answer(ans, lf, rf []byte, l, r int32) (left bool, err error) {
	switch {
	case rd.named && bytes.Equal(ans, lf):
		return true, nil
	case rd.named && bytes.Equal(ans, rf):
		return false, nil
	case !rd.named && isInteger(ans):
		if v, err := parseIndex(ans, 0); err == nil && (v == l || v == r) {
			return v == l, nil
		}
	case bytes.EqualFold(ans, []byte("left")):
		return true, nil
	case bytes.EqualFold(ans, []byte("right")):
		return false, nil
	}
	return false, fmt.Errorf("answer %q is neither candidate (left %q, right %q) nor the word left or right", clip(ans), clip(lf), clip(rf))
}

// set builds the Set read: numbered items as ReadCSV counts them, named
// ones renumbered in increasing byte order of their names.
func (rd *csvReader) set() (*Set, error) {
	if !rd.named {
		return finish(rd.name, rd.idx, rd.n, func(int) string { return fmt.Sprintf(":%d", rd.topLine) })
	}
	if len(rd.idx) == 0 {
		return nil, fmt.Errorf("triplets: %s: no triplets", rd.name)
	}
	if rd.n > 0 && rd.n != len(rd.names) {
		return nil, fmt.Errorf("triplets: %s: n=%d items expected, the file names %d", rd.name, rd.n, len(rd.names))
	}
	order := make([]int32, len(rd.names)) // order[k]: the first-use id of the k-th name
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(rd.names[a], rd.names[b]) })
	renum := make([]int32, len(order))
	sorted := make([]string, len(order))
	for k, id := range order {
		renum[id] = int32(k)
		sorted[k] = rd.names[id]
	}
	for p, v := range rd.idx {
		rd.idx[p] = renum[v]
	}
	return &Set{N: len(sorted), Idx: rd.idx, Names: sorted}, nil
}

// errorf returns an error naming the file and the current line.
func (rd *csvReader) errorf(format string, args ...any) error {
	return fmt.Errorf("triplets: %s:%d: %s", rd.name, rd.line, fmt.Sprintf(format, args...))
}

// WriteResponsesCSV writes s as a responses file that ReadCSVWith reads
// back as s: a "# n=N" line for numbered items, the header
// "head,left,right,answer", and one row per triplet (i, j, k) with head i,
// the candidates j and k in increasing order and the answer j.
func WriteResponsesCSV(w io.Writer, s *Set) error {
	if err := s.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if s.Names == nil {
		fmt.Fprintf(bw, "# n=%d\n", s.N)
	}
	c := DefaultColumns
	fmt.Fprintf(bw, "%s,%s,%s,%s\n", c.Head, c.Left, c.Right, c.Answer)
	var buf []byte
	for t := 0; t < s.Len(); t++ {
		i, j, k := s.At(t)
		buf = appendItem(buf[:0], s, i)
		buf = append(buf, ',')
		buf = appendItem(buf, s, min(j, k))
		buf = append(buf, ',')
		buf = appendItem(buf, s, max(j, k))
		buf = append(buf, ',')
		buf = appendItem(buf, s, j)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// appendItem appends item i of s as a CSV field: its name, or its number.
func appendItem(dst []byte, s *Set, i int32) []byte {
	if s.Names != nil {
		return csvfield.Append(dst, s.Names[i])
	}
	return strconv.AppendInt(dst, int64(i), 10)
}
