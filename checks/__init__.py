"""headflow's numerical side: the model, the claim registry, the checks and the CLI."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("headflow")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+source"
