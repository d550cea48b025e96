package all

import (
	_ "github.com/creditsim/creditsim/policy/fromruntime"  // credit-from-runtime
	_ "github.com/creditsim/creditsim/policy/fromwu"       // credit-from-wu
	_ "github.com/creditsim/creditsim/policy/postassigned" // post-assigned-credit
	_ "github.com/creditsim/creditsim/policy/sciunited"    // sciunited
	_ "github.com/creditsim/creditsim/policy/v1peak"       // v1peak
	_ "github.com/creditsim/creditsim/policy/v2actual"     // v2actual
	_ "github.com/creditsim/creditsim/policy/v3pfc"        // v3pfc and its presets
)
