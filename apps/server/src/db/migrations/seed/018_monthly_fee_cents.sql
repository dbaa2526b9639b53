-- The monthly fee is money: yuan to the fen (it showed "5.0000"). New databases get the column so
-- from the definition; this brings existing ones in line (schema sync never retypes a column).
alter table pms_charging_scheme alter column monthly_fee type numeric(18, 2);
