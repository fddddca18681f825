package algorithms

import _ "github.com/oe-lab/oe/lib/tripletloss"
