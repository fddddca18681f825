// Package algorithms links every ordinal embedding method into a program.
// Importing it for its side effect registers all of them with lib/embed, so
// that embed.New("soe", nil) and friends work:
//
//	import _ "github.com/oe-lab/oe/lib/algorithms"
//
// Each method package has one file here that imports it.
package algorithms
