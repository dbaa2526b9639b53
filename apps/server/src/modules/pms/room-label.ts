/**
 * A room's label as operators say it: the areas above it without the top one (the park), then the
 * room, e.g. "2号楼 305" or "2号楼 1单元 305". A room hung directly under a top area keeps that
 * area's name ("阳光公寓 305"), so a bare "305" never stands for four rooms.
 *
 * One SQL expression over the room alias `r`, so lists join the label in the same query as their
 * rows. The area's `ancestors` is "0,<park id>,…" (the tree rules keep it); the path is read from it
 * in order and the first real area (position 2) is left out unless it is the room's own area.
 */
export const roomLabelSql = (room = "r") => `concat_ws(' ', (
  select string_agg(p.area_name, ' ' order by k.at)
    from pms_area own
    cross join lateral unnest(string_to_array(coalesce(nullif(own.ancestors, ''), '0') || ',' || own.id, ',')::bigint[])
      with ordinality as k(area_id, at)
    join pms_area p on p.id = k.area_id
   where own.id = ${room}.area_id
     and (k.at > 2 or p.id = own.id)
), ${room}.room_name)`;
