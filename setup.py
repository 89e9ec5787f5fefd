"""Package discovery for the split layout (see pyproject.toml, [tool.setuptools.package-dir]).

lowering/ and tools/ are installed as tosa_xdsl.lowering and tosa_xdsl.tools; setuptools'
`packages.find` cannot prefix directories, so the list is computed here.
"""

from setuptools import find_packages, setup


def _packages_under(directory: str, prefix: str) -> list[str]:
    return [prefix] + [f"{prefix}.{p}" for p in find_packages(directory)]


setup(
    packages=_packages_under("tosa_xdsl", "tosa_xdsl")
    + _packages_under("lowering", "tosa_xdsl.lowering")
    + _packages_under("tools", "tosa_xdsl.tools"),
)
