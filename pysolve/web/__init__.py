"""`pysolve serve`: pysolve as a local web application (Starlette, Jinja2 templates, plain JavaScript).

One module per page (`tangram`, `hidato`, `squares`, `azul`, `crosscheck`)
holds that page's JSON endpoints; `app` puts them together with the pages,
the error handling and the worker threads searches run in; `serve` starts
uvicorn. The pages are faces over the same models as the CLI and the
terminal game: no rule of any puzzle is written here.
"""
