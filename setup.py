"""The package layout: the folders identities/, certificates/ and checks/ install as subpackages of `headflow`.

(pyproject.toml holds everything else; setuptools' declarative configuration cannot map several folders under one
package with their subpackages found.)"""

from setuptools import find_packages, setup

PARTS = ("identities", "certificates", "checks")

setup(
    packages=["headflow", *(f"headflow.{name}" for name in find_packages(include=[f"{part}*" for part in PARTS]))],
    package_dir={"headflow": "headflow", **{f"headflow.{part}": part for part in PARTS}},
)
