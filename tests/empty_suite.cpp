// Placeholder translation unit for a test binary whose suite has no files yet.
