"""The benchmark report: reads only the results Parquet; entry point ``build.build_report``."""
