"""Reports: statistics before and after, removals with reasons, kept files, uncertain places."""
