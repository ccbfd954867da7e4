from setuptools import setup

# cffi compiles the core against the stable ABI (its extension is `py_limited_api`), so
# one wheel tagged cp311-abi3 serves Python 3.11 and every later CPython.
setup(cffi_modules=["sim/core/build.py:ffibuilder"],
      options={"bdist_wheel": {"py_limited_api": "cp311"}})
