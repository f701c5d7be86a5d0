"""Claims of the Chinese (simplified) notebooks."""
