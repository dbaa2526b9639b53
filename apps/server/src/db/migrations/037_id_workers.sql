-- Worker numbers of the snowflake ids (db/ids.ts), leased by each process at start so that two live
-- processes never mint with the same one (design.md §2). One row per number, made here once; a
-- lease holds until expires_at by the database clock, its holder renews it well before then, and
-- anyone may take a lapsed one. minted_until is the last millisecond the holder's ids may carry
-- (epoch ms): whoever takes the number over mints after it.
create table id_worker (
  worker integer primary key check (worker between 0 and 1023),
  holder text,
  expires_at timestamptz not null default '-infinity',
  minted_until bigint not null default 0
);

insert into id_worker (worker) select n from generate_series(0, 1023) as n;
