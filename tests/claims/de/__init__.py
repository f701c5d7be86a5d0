"""Claims of the German notebooks."""
