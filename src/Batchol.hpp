// Batchol: batched Cholesky factorization and solves of many small SPD
// matrices on any Kokkos execution space.
#ifndef BATCHOL_HPP
#define BATCHOL_HPP

#include <Batchol_Batched.hpp>
#include <Batchol_Device.hpp>
#include <Batchol_Options.hpp>
#include <Batchol_Variable.hpp>

#endif
