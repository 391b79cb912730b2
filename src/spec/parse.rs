//! Parse `.feature` files into the scenario AST (work in progress).
