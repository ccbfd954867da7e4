from setuptools import setup

setup(cffi_modules=["sim/_core_build.py:ffibuilder"])
