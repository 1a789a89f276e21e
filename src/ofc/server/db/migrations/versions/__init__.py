"""The schema's revisions, oldest first: ``r0001`` the oldest shape a release shipped, then each change."""
