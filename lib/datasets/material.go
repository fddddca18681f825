package datasets

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/oe-lab/oe/lib/triplets"
)

// materialArchive is the snapshot of the material data's repository that
// the shared data's MANIFEST.md pins (section "Real crowd-sourced
// comparisons"); cblearn's fetch_material_similarity downloads the same
// files from the repository's default branch.
const materialArchive = "https://github.com/mlagunas/material-appearance-similarity/archive/e5fccab94462f8b245e29818a31e83253369db6e.tar.gz"

// materialManifest names where the JSON checksums come from: MANIFEST.md
// lists the sha256 of the extracted files.
const materialManifest = "shared data MANIFEST.md (sha256 of the extracted JSON)"

// material is the material appearance similarity data of Lagunas et al.
var material = Spec{
	Name: "material",
	Description: "Material appearance similarity (Lagunas et al., SIGGRAPH 2019): people's answers to " +
		"\"which of two materials looks more like the reference?\" about 100 named materials, " +
		"as the authors split them: 22,801 training and 3,000 test queries, with vote counts",
	Kind: KindComparisons,
	N:    100, Available: 100,
	Files: []File{
		{Path: "crowd/material/answers_processed_train.json.gz", URL: materialArchive, Member: "data/answers_processed_train.json",
			Sums: []Checksum{sha256Sum("eafd46b57a8220d7b650961dd119faabf30424620828eb37a7d00b0390085214", materialManifest)}},
		{Path: "crowd/material/answers_processed_test.json.gz", URL: materialArchive, Member: "data/answers_processed_test.json",
			Sums: []Checksum{sha256Sum("8705e1d38f9762da6a66ab4b26fb691aacdea706692ebfe2ef206262de979def", materialManifest)}},
		{Path: "crowd/material/material_names.txt", URL: materialArchive, Member: "data/havran1_ennis_298x298_LDR/*.jpg",
			Sums: []Checksum{sha256Sum("e79c6e0fbfa19e83967caea276b7e393572ccacd62e7a4b5268d9488118541c5",
				"sha256sum of the shared data folder's copy (the archive's image list)")}},
	},
	compare: loadMaterial,
}

// loadMaterial reads the authors' answers_processed_{train,test}.json and
// the list of material names, to which their indices point.
func loadMaterial(paths []string) (*Comparisons, error) {
	names, err := readNameList(paths[2])
	if err != nil {
		return nil, err
	}
	c := &Comparisons{Names: names}
	if c.Train, err = readAnswers(paths[0], len(names)); err != nil {
		return nil, err
	}
	if c.Test, err = readAnswers(paths[1], len(names)); err != nil {
		return nil, err
	}
	return c, nil
}

// readNameList reads item names one a line, in increasing byte order.
func readNameList(path string) ([]string, error) {
	rc, err := openData(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	names, err := triplets.ReadNames(rc, path)
	if err != nil {
		return nil, err
	}
	if err := triplets.CheckNames(names); err != nil {
		return nil, fmt.Errorf("datasets: %s: %w", path, err)
	}
	return names, nil
}

// answersKeys are the keys of the authors' answers_processed files: every
// query [ref, a, b] with its votes [for a, for b], the majority (or half,
// on a tie) having chosen a, and the same split into the queries without
// a tie (_diff) and with one (_equal).
var answersKeys = []string{"answers", "agreement", "answers_diff", "agreement_diff", "answers_equal", "agreement_equal"}

// readAnswers reads one of the authors' answers_processed JSON files over n
// items. Anything not in their format is an error naming the file and key.
func readAnswers(path string, n int) ([]Answered, error) {
	rc, err := openData(path)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("datasets: %s: %s (not the authors' answers_processed format)", path, fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(rc)
	var doc map[string]json.RawMessage
	if err := dec.Decode(&doc); err != nil {
		return nil, bad("want a JSON object with the keys %s: %v", strings.Join(answersKeys, ", "), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("data after the JSON object")
	}
	for k := range doc {
		if !slices.Contains(answersKeys, k) {
			return nil, bad("unexpected key %q", k)
		}
	}
	lists := make(map[string][][]int, len(answersKeys))
	for _, k := range answersKeys {
		raw, ok := doc[k]
		if !ok {
			return nil, bad("key %q missing", k)
		}
		var l [][]int
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, bad("key %q: want a list of lists of integers: %v", k, err)
		}
		lists[k] = l
	}
	queries, votes := lists["answers"], lists["agreement"]
	if len(queries) != len(votes) {
		return nil, bad("key \"agreement\": %d entries for the %d of \"answers\"", len(votes), len(queries))
	}
	if len(queries) == 0 {
		return nil, bad("key \"answers\": no queries")
	}
	out := make([]Answered, len(queries))
	split := map[string][][]int{}
	for q, a := range queries {
		if len(a) != 3 || a[0] == a[1] || a[0] == a[2] || a[1] == a[2] {
			return nil, bad("key \"answers\", entry %d: %v is not a query [ref, a, b] of three different items", q, a)
		}
		for _, v := range a {
			if v < 0 || v >= n {
				return nil, bad("key \"answers\", entry %d: item %d out of range [0, %d)", q, v, n)
			}
		}
		g := votes[q]
		if len(g) != 2 || g[1] < 0 || g[0] < g[1] || g[0] == 0 {
			return nil, bad("key \"agreement\", entry %d: %v is not [votes for a, votes for b] with the majority first", q, g)
		}
		out[q] = Answered{Ref: int32(a[0]), A: int32(a[1]), B: int32(a[2]), ForA: g[0], ForB: g[1]}
		suffix := "_diff"
		if g[0] == g[1] {
			suffix = "_equal"
		}
		split["answers"+suffix] = append(split["answers"+suffix], a)
		split["agreement"+suffix] = append(split["agreement"+suffix], g)
	}
	for _, k := range answersKeys[2:] {
		if !slices.EqualFunc(lists[k], split[k], slices.Equal) {
			return nil, bad("key %q: does not list the queries of \"answers\" %s a tie", k, map[bool]string{true: "with", false: "without"}[strings.HasSuffix(k, "_equal")])
		}
	}
	return out, nil
}
