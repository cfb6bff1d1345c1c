// The host-level calls the device-level tests compare with. They are compiled
// once, in host_reference.cpp, for every configuration: the device-API test
// files then instantiate no host-level batchol call (expensive to compile),
// only the user kernels. Inputs and results are host matrices, one per item;
// every call uses Path::Auto and fences before returning.
#ifndef BATCHOL_TEST_HOST_REFERENCE_HPP
#define BATCHOL_TEST_HOST_REFERENCE_HPP

#include "config.hpp"
#include "matrix.hpp"

#include <vector>

namespace batchol_test {

// potrf on stored images (triangle C::uplo): the images after the call; info
// must be 0 for every item.
template <class C>
std::vector<Matrix> reference_potrf(const std::vector<Matrix>& images, int n);

// potrs with factored images; rhs items are n x nrhs. rank3 selects a
// (batch, n, nrhs) B over a (batch, n) one (nrhs must then be 1).
template <class C>
std::vector<Matrix> reference_potrs(const std::vector<Matrix>& factors,
                                    const std::vector<Matrix>& rhs, int n, int nrhs, bool rank3);

// trsv with the triangle C::uplo of factored images; rhs items are n x 1.
template <class C>
std::vector<Matrix> reference_trsv(const std::vector<Matrix>& factors,
                                   const std::vector<Matrix>& rhs, int n, batchol::Trans trans);

// posv on stored images with n x 1 right-hand sides; info must be 0.
template <class C>
std::vector<Matrix> reference_posv(const std::vector<Matrix>& images,
                                   const std::vector<Matrix>& rhs, int n);

}  // namespace batchol_test

#endif
