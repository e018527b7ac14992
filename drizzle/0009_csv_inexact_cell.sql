-- The CSV export's COPY path (server/content/csv.ts): a cell the SQL forms cannot write exactly
-- as the JavaScript codec would (a JSON object with array-index keys, a value of an unexpected
-- shape) calls this, which stops the COPY with its own SQLSTATE; the export then writes that
-- batch another way. Called only for such cells (the second argument of a coalesce), so it costs
-- nothing otherwise.
CREATE OR REPLACE FUNCTION larder_csv_inexact() RETURNS text
  LANGUAGE plpgsql VOLATILE
  AS $$
BEGIN
  RAISE EXCEPTION 'a CSV cell needs the JavaScript codec' USING ERRCODE = 'LCSV1';
END
$$;
