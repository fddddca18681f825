package csvfield

import (
	"slices"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []string
		err        string
	}{
		{"plain", "a,b,c", []string{"a", "b", "c"}, ""},
		{"spaces around unquoted", " a , b\t,c ", []string{"a", "b", "c"}, ""},
		{"empty fields", ",,", []string{"", "", ""}, ""},
		{"quoted comma and quote", `"a,b","say ""hi""",c`, []string{"a,b", `say "hi"`, "c"}, ""},
		{"quoted keeps spaces", `" x ", "y" ,z`, []string{" x ", "y", "z"}, ""},
		{"empty quoted", `"",b`, []string{"", "b"}, ""},
		{"unterminated", `a,"b`, nil, "unterminated quoted field"},
		{"text after quote", `"a"b,c`, nil, `"b,c" after a quoted field`},
		{"bare quote", `a,b"c`, nil, `a quote inside the unquoted field "b\"c"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var scratch []byte
			fields, err := Split(nil, []byte(tc.line), &scratch)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			got := make([]string, len(fields))
			for i, f := range fields {
				got[i] = string(f)
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("Split = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// FuzzAppend checks that Split reads back every field Append writes,
// whatever it holds but a line break.
func FuzzAppend(f *testing.F) {
	f.Add("plain", `a "quoted", field`)
	f.Add(" lead", "#hash")
	f.Fuzz(func(t *testing.T, a, b string) {
		if strings.ContainsAny(a+b, "\r\n") {
			return
		}
		line := Append(append(Append(nil, a), ','), b)
		var scratch []byte
		fields, err := Split(nil, line, &scratch)
		if err != nil || len(fields) != 2 || string(fields[0]) != a || string(fields[1]) != b {
			t.Fatalf("Split(%q) = %q, %v; want %q, %q", line, fields, err, a, b)
		}
	})
}
