// Package spell finds what a misspelled name meant: the suppression
// directives' check lists and the configuration file's keys name the
// nearest check or key in their errors.
package spell

import "strings"

// typoDistance is the largest edit distance at which a word is read as
// a misspelling of name: 1, or 2 for names of 12 letters or more. No word
// of the Go distribution's sources and documents is that near a check's
// name or retrylint (the nearest are break and arena, 2 from barenak;
// retrying, 2 from retrylint; unchecked, 3 from dlqunchecked).
func typoDistance(name string) int {
	if len(name) >= 12 {
		return 2
	}
	return 1
}

// Nearest returns the name among names nearest to word, if word is one of
// them or a misspelling of one (see typoDistance), ignoring case; ""
// otherwise.
func Nearest(word string, names []string) string {
	best, bestDist := "", -1
	lower := strings.ToLower(word)
	for _, name := range names {
		if d := editDistance(lower, name); d <= typoDistance(name) && (bestDist < 0 || d < bestDist) {
			best, bestDist = name, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b,
// in bytes: insertions, deletions, substitutions and transpositions of
// adjacent bytes (bareank is 1 from barenak).
func editDistance(a, b string) int {
	rows := [3][]int{make([]int, len(b)+1), make([]int, len(b)+1), make([]int, len(b)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(a); i++ {
		pp, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		rows = [3][]int{prev, cur, pp}
	}
	return rows[1][len(b)]
}
