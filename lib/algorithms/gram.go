package algorithms

import _ "github.com/oe-lab/oe/lib/gram" // gnmds, ckl, forte
