package symbols

import "reflect"

// Symbols maps "import/path/name" to the package's exported symbols.
var Symbols = map[string]map[string]reflect.Value{}

//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract -name symbols github.com/oe-lab/oe/runner/exp
