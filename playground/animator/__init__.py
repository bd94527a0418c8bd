"""The backward-pass animator: step through the chain rule, forwards and backwards in time."""
