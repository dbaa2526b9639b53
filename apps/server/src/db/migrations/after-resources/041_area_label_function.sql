-- The area part of a room's label (modules/pms/room-label.ts): the areas above the room without the
-- top one, or the room's own area when it hangs directly under the top. Every list that shows rooms
-- reads it per row. As an inline subquery (unnest of the ancestors, two joins) it was planned anew in
-- every statement that carried it: on the owner page a third of the planning. PL/pgSQL keeps the
-- plan of its one lookup for the session, so a statement plans a function call instead. The lookup is
-- by id: its generic plan is the right one for every area (the embedded database plans every other
-- statement for its values, see db/pglite-open.ts).
-- (No line of the body ends in a semicolon: migrate.ts splits statements there.)
create or replace function pms_area_label(area bigint) returns text
  language plpgsql stable
  set plan_cache_mode = force_generic_plan
as $$
begin
  return (
    select string_agg(p.area_name, ' ' order by k.at)
      from pms_area own
      cross join lateral unnest(string_to_array(coalesce(nullif(own.ancestors, ''), '0') || ',' || own.id, ',')::bigint[])
        with ordinality as k(area_id, at)
      join pms_area p on p.id = k.area_id
     where own.id = area
       and (k.at > 2 or p.id = own.id)
  ); end $$;
