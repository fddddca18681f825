package triplets

// Query is a question put to people: which of two candidates is closer to
// the head? A query is the head with an unordered pair of candidates, kept
// as A < B, so the triplets (h, a, b) and (h, b, a) answer the same query.
type Query struct{ Head, A, B int32 }

// QueryOf returns the query that triplet t answers, and whether the answer
// was A.
func (s *Set) QueryOf(t int) (q Query, choseA bool) {
	i, j, k := s.At(t)
	if j < k {
		return Query{i, j, k}, true
	}
	return Query{i, k, j}, false
}

// Tally is a query with the number of answers for each candidate.
type Tally struct {
	Query
	ForA, ForB int
}

// Majority returns the majority answer as a triplet (head, chosen, other);
// ok is false on a tie.
func (t Tally) Majority() (i, j, k int32, ok bool) {
	switch {
	case t.ForA > t.ForB:
		return t.Head, t.A, t.B, true
	case t.ForB > t.ForA:
		return t.Head, t.B, t.A, true
	}
	return 0, 0, 0, false
}

// Tallies counts the answers in s to each query, the queries in the order
// of their first answer.
func Tallies(s *Set) []Tally {
	ids, count := queryIDs(s)
	out := make([]Tally, count)
	for t, id := range ids {
		q, choseA := s.QueryOf(t)
		out[id].Query = q
		if choseA {
			out[id].ForA++
		} else {
			out[id].ForB++
		}
	}
	return out
}

// queryIDs numbers the queries of s in the order of their first answer and
// returns each triplet's query number and the number of queries.
func queryIDs(s *Set) (ids []int32, count int) {
	ids = make([]int32, s.Len())
	seen := make(map[Query]int32)
	for t := range ids {
		q, _ := s.QueryOf(t)
		id, ok := seen[q]
		if !ok {
			id = int32(len(seen))
			seen[q] = id
		}
		ids[t] = id
	}
	return ids, len(seen)
}
