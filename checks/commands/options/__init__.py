"""What several subcommands share: the options of the deciding commands (`verify`, `check`)."""
